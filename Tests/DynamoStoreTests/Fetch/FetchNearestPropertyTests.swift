import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Testing

/// A point in 6 dimensions, in one of three groups, indexed under every distance function and
/// by group.
final class Point: ManagedObject {
    static let dimensions = 6

    override class var mapping: EntityMapping {
        EntityMapping(
            tableName: "Points",
            vectorIndexes: [
                .vector("cosine", attribute: "position", dimensions: dimensions, distance: .cosine),
                .vector("euclidean", attribute: "position", dimensions: dimensions, distance: .euclidean),
                .vector("dot", attribute: "position", dimensions: dimensions, distance: .dotProduct),
                .vector("byGroup", attribute: "position", dimensions: dimensions, distance: .euclidean, partitionKey: "group"),
            ])
    }
    @Attribute var id: Int
    @Attribute var group: Int
    @Attribute var position: [Float] = []
}

/// `fetchNearest` over random saved vectors against a brute-force ranking computed here in f32.
@Suite struct FetchNearestPropertyTests {
    static func randomVector(_ random: inout SeededRandom) -> [Float] {
        (0..<Point.dimensions).map { _ in Float(random.int(-1000..<1001)) / 250 }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func fetchNearestAgreesWithABruteForceRanking(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        try await withStore(types: [Point.self]) { fixture in
            let context = fixture.context()
            var saved: [Int: (group: Int, position: [Float])] = [:]
            for id in 0..<random.int(40..<80) {
                let point = Point(context: context)
                point.id = id
                point.group = random.int(0..<3)
                point.position = Self.randomVector(&random)
                saved[id] = (point.group, point.position)
            }
            try await context.save()
            for _ in 0..<6 {
                let query = Self.randomVector(&random)
                let k = random.int(1..<20)
                let (index, distance): (String, EntityVectorIndex.Distance) = random.pick([
                    ("cosine", .cosine), ("euclidean", .euclidean), ("dot", .dotProduct), ("byGroup", .euclidean),
                ])
                let group = random.int(0..<3)
                let equalities: [String: Any] = index == "byGroup" ? ["group": group] : [:]
                let found = try await fixture.context().fetchNearest(Point.self, index: index, to: query, k: k, where: equalities)

                let candidates = saved.filter { index != "byGroup" || $0.value.group == group }
                let expected = candidates.map { ReferenceDistance.score(distance, $0.value.position, query) }
                    .sorted { ReferenceDistance.nearer(distance, $0, $1) }.prefix(k)
                let context = "seed \(seed), \(index), k \(k)"
                #expect(found.count == expected.count, "\(context)")
                // The scores are the k best of the brute force, in its order (equal scores may
                // swap objects, so the scores are compared, and each object's own score below).
                for (result, score) in zip(found, expected) {
                    #expect(ReferenceDistance.close(result.score, score), "\(context): \(result.score) vs \(score)")
                }
                for result in found {
                    let stored = try #require(saved[result.object.id])
                    #expect(result.object.position == stored.position, "\(context)")
                    let own = ReferenceDistance.score(distance, stored.position, query)
                    #expect(ReferenceDistance.close(result.score, own), "\(context): point \(result.object.id) \(result.score) vs \(own)")
                    if index == "byGroup" { #expect(stored.group == group, "\(context)") }
                }
                #expect(Set(found.map(\.object.id)).count == found.count, "\(context)")
            }
        }
    }
}
