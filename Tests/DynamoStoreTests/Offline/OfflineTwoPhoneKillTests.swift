import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// Two phone apps (`offline-phone` processes, each on its own file, each under a random merge
/// policy) edit the same two memos offline, come back online and replay in a random order;
/// each replay is held at a random request (before sending it, or after DynamoDB answered),
/// the test sees the phone print `held` and SIGKILLs it there, then starts it again on its file
/// and replays the rest. Checked against the model of DynamoDB and the phones that
/// `OfflinePropertyTests` uses: every memo's row in DynamoDB after every replay (versions count
/// the writes: no acknowledged save lost, none applied twice), each replay's resolutions
/// (applied, object won, merged, rolled back, failed) exactly, the failed entries each phone
/// keeps, and what each phone shows at the end.
///
/// Size from the environment: `STORE_OFFLINE_TWO_PHONE_SEEDS` (a count, or `a-b`; default 3)
/// and `STORE_OFFLINE_TWO_PHONE_ROUNDS` (default 4).
@Suite("OfflineTwoPhoneKillTests", .serialized)
struct OfflineTwoPhoneKillTests {
    static var seeds: [UInt64] { environmentSeeds("STORE_OFFLINE_TWO_PHONE_SEEDS", default: 3) }

    static var rounds: Int { Int(ProcessInfo.processInfo.environment["STORE_OFFLINE_TWO_PHONE_ROUNDS"] ?? "") ?? 4 }

    static let policies: [(name: String, policy: MergePolicy)] = [
        ("error", .error), ("storeTrump", .mergeByPropertyStoreTrump), ("objectTrump", .mergeByPropertyObjectTrump),
        ("overwrite", .overwrite), ("rollback", .rollback),
    ]
    static let memos = ["m0", "m1"]

    @Test(arguments: seeds)
    func twoPhonesKilledMidReplayLoseNoSaveAndApplyNoneTwice(seed: UInt64) async throws {
        try await withTestServer { endpoint in
            try await withTemporaryDirectory { directory in
                try await Self.run(seed: seed, endpoint: endpoint.url, directory: directory)
            }
        }
    }

    static func run(seed: UInt64, endpoint url: String, directory: URL) async throws {
        var random = SeededRandom(seed: seed)
        let client = try DynamoClient(
            configuration: DynamoClient.Configuration(
                region: "us-east-1", endpoint: url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test")))
        var phones: [PhoneProcess] = []
        var models: [PhoneState] = []
        var launches: [(file: String, policy: String)] = []
        for name in ["x", "y"] {
            let (policyName, policy) = random.pick(Self.policies)
            let file = directory.appendingPathComponent("\(name).sqlite").path
            launches.append((file, policyName))
            phones.append(try PhoneProcess(endpoint: url, file: file, policy: policyName))
            models.append(PhoneState(policy: policy))
        }
        let setting = "seed \(seed) (x: \(launches[0].policy), y: \(launches[1].policy))"
        #expect(await phones[0].run("create-tables").answer?.hasPrefix("ok") == true, "\(setting)")
        var server: [String: MemoRow] = [:]
        for id in Self.memos {
            _ = try await client.putItem(
                PutItemInput(tableName: "PhoneMemos", item: ["id": .s(id), "a": .s("a0"), "b": .s("b0"), "version": .n(DynamoNumber(1))]))
            server[id] = MemoRow(a: "a0", b: "b0", version: 1)
        }
        // Both phones read both memos, so their caches hold them.
        for index in 0..<2 {
            for id in Self.memos {
                let expected = models[index].view(id, server: server)
                #expect(await phones[index].run("read \(id)").lines == [Self.line(id, expected)], "\(setting): first read")
            }
        }
        var kills = 0
        // Every memo's row in DynamoDB is the model's.
        func checkRows(_ context: String) async throws {
            for id in Self.memos {
                let row = try await client.getItem(GetItemInput(tableName: "PhoneMemos", key: ["id": .s(id)], consistentRead: true)).item
                #expect(row.map(MemoRow.init) == server[id], "\(context): \(id) in DynamoDB")
            }
        }
        // A killed phone started again on its file, replaying the rest of its outbox.
        func relaunch(_ index: Int, _ context: String) async throws {
            phones[index] = try PhoneProcess(endpoint: url, file: launches[index].file, policy: launches[index].policy)
            let (lines, again) = await phones[index].run("replay")
            #expect(again?.hasPrefix("ok") == true, "\(context): replay after the kill → \(again ?? "died")")
            #expect(Self.resolutions(lines) == models[index].replay(&server), "\(context): replay after the kill")
        }
        for round in 0..<Self.rounds {
            for index in 0..<2 {
                #expect(await phones[index].run("offline").answer?.hasPrefix("ok") == true)
                models[index].online = false
            }
            for edit in 0..<random.int(2..<7) {
                let index = random.int(0..<2)
                let id = random.pick(Self.memos), property = random.chance(50) ? "a" : "b", value = "r\(round)e\(edit)"
                let answer = await phones[index].run("edit \(id) \(property) \(value)").answer
                #expect(answer?.hasPrefix("ok") == true, "\(setting) round \(round): edit → \(answer ?? "died")")
                models[index].edit(id, property, value, server: server)
            }
            for index in 0..<2 {
                #expect(await phones[index].run("online").answer?.hasPrefix("ok") == true)
                models[index].online = true
            }
            // Interleaved: a phone killed mid-replay is started again only after the other
            // phone's replay (finished, or killed too), in a random order.
            let interleaved = random.chance(50)
            var down: [Int] = []
            for index in random.chance(50) ? [0, 1] : [1, 0] {
                let context = "\(setting) round \(round) phone \(index)\(interleaved ? " (interleaved)" : "")"
                let request = random.int(1..<4), after = random.chance(50)
                #expect(await phones[index].run("hold-at-request \(request) \(after ? "after" : "before")").answer?.hasPrefix("ok") == true)
                phones[index].send("replay")
                let (printed, answer) = await phones[index].answer(orLineStartingWith: "held")
                if answer?.hasPrefix("held") == true {
                    // Held mid-replay at the request: killed there.
                    #expect(answer == "held \(after ? "after" : "before")", "\(context)")
                    phones[index].kill()
                    kills += 1
                    _ = models[index].replay(&server, losingWriteAfter: request - 1, sent: after)
                    if interleaved { down.append(index) } else { try await relaunch(index, context) }
                } else {
                    #expect(answer?.hasPrefix("ok") == true, "\(context): replay → \(answer ?? "died")")
                    #expect(Self.resolutions(printed) == models[index].replay(&server), "\(context): replay")
                    #expect(await phones[index].run("hold-at-request 0").answer?.hasPrefix("ok") == true)
                }
                try await checkRows(context)
            }
            for index in random.chance(50) ? down : down.reversed() {
                let context = "\(setting) round \(round) phone \(index) (relaunched after the other replayed)"
                try await relaunch(index, context)
                try await checkRows(context)
            }
        }
        for index in 0..<2 {
            #expect(await phones[index].run("pending").lines == ["pending 0 failed \(models[index].failed)"], "\(setting) phone \(index)")
            for id in Self.memos {
                #expect(await phones[index].run("read \(id)").lines == [Self.line(id, server[id])], "\(setting) phone \(index): \(id) at the end")
            }
            phones[index].kill()
        }
        #expect(kills > 0, "\(setting) never killed a phone: more rounds are needed")
    }

    /// The phone's `read` line of a memo row.
    static func line(_ id: String, _ row: MemoRow?) -> String {
        guard let row else { return "memo \(id) none" }
        return "memo \(id) \(row.a) \(row.b ?? "-") \(row.version)"
    }

    /// The resolutions a `replay` printed, one per entry.
    static func resolutions(_ lines: [String]) -> [OutboxOutcome.Resolution] {
        lines.compactMap { line -> OutboxOutcome.Resolution? in
            guard line.hasPrefix("resolution ") else { return nil }
            switch line.dropFirst("resolution ".count) {
            case "applied": return .applied
            case "objectWon": return .objectWon
            case "merged": return .merged
            case "rolledBack": return .rolledBack
            default: return .failed
            }
        }
    }
}
