import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Synchronization
import Testing

/// One save's batch: the parent of `CrashItem.itemsPerBatch` items.
final class CrashBatch: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version") }
    @Attribute var id: String
    @Attribute var number: Int = 0
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "batch") var items: Set<CrashItem>
}

/// An item of a batch.
final class CrashItem: ManagedObject {
    static let itemsPerBatch = 10
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version") }
    @Attribute var id: String
    @Attribute var position: Int = 0
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "items", minCount: 1) var batch: CrashBatch?
}

/// Updated by every save of a round: how many batches it stored and the last one.
final class CrashLedger: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version") }
    @Attribute var id: String
    @Attribute var count: Int = 0
    @Attribute var last: Int = -1
    @Attribute var version: Int64 = 0
}

/// Issue 7: a save interrupted by killing the server. Each save inserts a batch (1 parent, 10
/// items, both sides of the relationship) and updates the round's ledger: 12 actions, one
/// `TransactWriteItems`. The real `localdynamo` process is killed with SIGKILL while saves
/// run, restarted on the same files, and the rows must show every batch whole or not at all,
/// every acknowledged save, and a ledger that agrees with the batches present.
@Suite("A save interrupted by killing the server")
struct ServerKillTests {
    static let types: [ManagedObject.Type] = [CrashBatch.self, CrashItem.self, CrashLedger.self]

    @Test func savesThatFitOneTransactionSurviveAKillWholeOrNotAtAll() async throws {
        var random = SeededRandom(seed: 0x7_5EED)
        try await withTemporaryDirectory { directory in
            var server = try await ServerProcess.start(dataDirectory: directory)
            defer { server.kill() }
            try await DynamoStore(types: Self.types, client: server.client())
                .createTables(pollInterval: .milliseconds(10))
            var acknowledged: [Int: Int] = [:]
            for round in 0..<8 {
                let delay = Duration.milliseconds(random.int(0..<300))
                acknowledged[round] = try await saveUntilKilled(round: round, server: server, after: delay)
                server = try await ServerProcess.start(dataDirectory: directory)
                // Every round so far, so earlier rounds are checked after later kills too.
                for (checked, count) in acknowledged.sorted(by: { $0.key < $1.key }) {
                    try await verify(round: checked, acknowledged: count, client: server.client())
                }
            }
        }
    }

    /// Saves batch after batch of `round` until the server dies; kills it `delay` after the
    /// first save was acknowledged. Returns how many saves returned successfully.
    private func saveUntilKilled(round: Int, server: ServerProcess, after delay: Duration) async throws -> Int {
        let store = try DynamoStore(types: Self.types, client: server.client())
        let acknowledged = Mutex(0)
        let (firstAcknowledged, signal) = AsyncStream<Void>.makeStream()
        let saver = Task { () -> any Error in
            defer { signal.finish() }
            let context = ObjectContext(store: store)
            context.undoManager = nil
            let ledger = CrashLedger(context: context)
            ledger.id = "round\(round)"
            var number = 0
            while true {
                let batch = CrashBatch(context: context)
                batch.id = Self.batchID(round: round, number: number)
                batch.number = number
                for position in 0..<CrashItem.itemsPerBatch {
                    let item = CrashItem(context: context)
                    item.id = "\(batch.id)-\(position)"
                    item.position = position
                    item.batch = batch
                }
                ledger.count = number + 1
                ledger.last = number
                do {
                    try await context.save()
                } catch {
                    return error
                }
                acknowledged.withLock { $0 += 1 }
                signal.yield()
                number += 1
            }
        }
        for await _ in firstAcknowledged { break }
        guard acknowledged.withLock({ $0 }) > 0 else {
            throw ServerProcess.Failure(description: "round \(round): no save succeeded: \(await saver.value)")
        }
        try await Task.sleep(for: delay)
        server.kill()
        _ = await saver.value // the save the kill interrupted failed; its rows are checked after the restart
        return acknowledged.withLock { $0 }
    }

    /// The rows of `round` after a restart: batches `0..<present` exist whole, nothing else does,
    /// `present` is the acknowledged count or one more (the save in flight may have committed
    /// before its answer was lost), and the ledger says `present`.
    private func verify(round: Int, acknowledged: Int, client: DynamoClient) async throws {
        let prefix = "r\(round)-"
        let batches = try await scan(client, table: "CrashBatch", prefix: prefix)
        let items = try await scan(client, table: "CrashItem", prefix: prefix)
        let present = batches.count
        #expect(
            present == acknowledged || present == acknowledged + 1,
            "round \(round): \(acknowledged) saves acknowledged, \(present) batches stored")
        var expectedItems: Set<String> = []
        for number in 0..<present {
            let id = Self.batchID(round: round, number: number)
            let memberIDs = (0..<CrashItem.itemsPerBatch).map { "\(id)-\($0)" }
            expectedItems.formUnion(memberIDs)
            guard let batch = batches[id] else {
                Issue.record("round \(round): batch \(number) missing while \(present) batches are stored")
                continue
            }
            #expect(
                Set(batch["items"]?.strings ?? []) == Set(memberIDs),
                "round \(round): batch \(number) lists \(batch["items"].map(String.init(describing:)) ?? "no items")")
            for member in memberIDs {
                #expect(items[member]?["batch"] == .s(id), "round \(round): item \(member) missing or not in its batch")
            }
        }
        #expect(
            Set(items.keys) == expectedItems,
            "round \(round): items of no whole batch: \(Set(items.keys).subtracting(expectedItems).sorted().prefix(5))")
        let ledger = try await client.getItem(
            GetItemInput(
                tableName: "CrashLedger", key: ["id": .s("round\(round)")], consistentRead: true)
        ).item
        #expect(ledger?["count"] == .n(DynamoNumber(present)), "round \(round): ledger \(ledger.map(String.init(describing:)) ?? "missing")")
        #expect(ledger?["last"] == .n(DynamoNumber(present - 1)))
    }

    /// Every row of `table` whose id starts with `prefix`, by id (a consistent, paged Scan).
    private func scan(_ client: DynamoClient, table: String, prefix: String) async throws -> [String: Item] {
        var rows: [String: Item] = [:]
        for try await item in client.scanItems(ScanInput(tableName: table, consistentRead: true)) {
            guard case .s(let id)? = item["id"], id.hasPrefix(prefix) else { continue }
            rows[id] = item
        }
        return rows
    }

    static func batchID(round: Int, number: Int) -> String { "r\(round)-b\(number)" }
}

private extension AttributeValue {
    /// The members of a string set.
    var strings: [String]? {
        if case .ss(let members) = self { members } else { nil }
    }
}
