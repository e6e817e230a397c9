import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// Similarity fetches of a phone with an offline store: offline they rank the cached rows with
/// the outbox's saves over them on the device, online they rank the outbox's saves into
/// DynamoDB's answer; both as DynamoDB scores (f32, ties by key), checked against a brute-force
/// reference over what the phone holds. Seeded: random vectors, owners, offline inserts,
/// changes and deletes, every distance function and the owner-restricted index.
@Suite struct OfflineNearestTests {
    /// What the phone believes each recollection is: its owner and its vector.
    private struct Row: Equatable {
        var owner: String
        var vector: [Float]
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func offlineAndOnlineSearchesRankWhatThePhoneHolds(seed: UInt64) async throws {
        try await withTestServer { endpoint in
            try await withTemporaryDirectory { directory in
                var random = SeededRandom(seed: seed)
                var configuration = DynamoClient.Configuration(
                    region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
                configuration.retry = .disabled
                let radio = PhoneRadio(inner: endpoint.transport)
                configuration.transport = radio
                let client = try DynamoClient(configuration: configuration)
                try await DynamoStore(types: [Recollection.self], client: client).createTables(pollInterval: .milliseconds(10))
                let offline = try OfflineStore(path: directory.appendingPathComponent("phone.sqlite").path)
                let store = try DynamoStore(types: [Recollection.self], client: client, offline: offline)

                func randomVector() -> [Float] { (0..<3).map { _ in Float(random.int(-4..<5)) / 2 } }
                var model: [String: Row] = [:]
                let context = ObjectContext(store: store)
                func insert(_ number: Int, into context: ObjectContext) {
                    let row = Row(owner: random.pick(["ana", "bo"]), vector: randomVector())
                    let recollection = Recollection(context: context)
                    recollection.id = "r\(number)"
                    recollection.owner = row.owner
                    recollection.embedding = row.vector
                    model["r\(number)"] = row
                }
                for number in 0..<12 { insert(number, into: context) }
                try await context.save()
                // The phone reads them all (its cache), then goes offline and edits.
                _ = try await ObjectContext(store: store).fetch(try FetchRequest<Recollection>(in: store.model))
                radio.isOffline = true
                let editor = ObjectContext(store: store)
                for (id, _) in model.sorted(by: { $0.key < $1.key }) where random.chance(40) {
                    let object = try #require(try await editor.existingObject(with: Self.id(id), as: Recollection.self))
                    if random.chance(30) {
                        editor.delete(object)
                        model[id] = nil
                    } else {
                        object.embedding = randomVector()
                        model[id]?.vector = object.embedding
                    }
                }
                for number in 12..<(12 + random.int(0..<4)) { insert(number, into: editor) }
                try await editor.save()

                for online in [false, true] {
                    radio.isOffline = !online
                    for (index, distance, owner) in [
                        ("byCosine", EntityVectorIndex.Distance.cosine, nil), ("byEuclid", .euclidean, nil), ("byDot", .dotProduct, nil),
                        ("byOwner", .euclidean, "ana"),
                    ] as [(String, EntityVectorIndex.Distance, String?)] {
                        let query = randomVector()
                        // Online, DynamoDB's k best lack the outbox's rows: ask for all to compare exactly.
                        let k = online ? 100 : random.int(1..<20)
                        let found = try await ObjectContext(store: store).fetchNearest(
                            Recollection.self, index: index, to: query, k: k, where: owner.map { ["owner": $0] } ?? [:])
                        let expected = model.filter { owner == nil || $0.value.owner == owner }
                            .map { (id: $0.key, score: ReferenceDistance.score(distance, query, $0.value.vector)) }
                            .sorted { $0.score != $1.score ? ReferenceDistance.nearer(distance, $0.score, $1.score) : $0.id < $1.id }
                            .prefix(k)
                        #expect(found.map(\.object.id) == expected.map(\.id), "seed \(seed), \(index), online \(online)")
                        for (result, reference) in zip(found, expected) {
                            #expect(ReferenceDistance.close(result.score, reference.score))
                            #expect(result.object.embedding == model[result.object.id]?.vector)
                        }
                    }
                }
            }
        }
    }

    private static func id(_ id: String) -> ObjectID { ObjectID(entityName: "Recollection", key: ["id": .s(id)]) }
}
