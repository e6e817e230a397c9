// The code of docs/store.md, section "Fetching by similarity", compiled here as it is shown
// there (SimilarityDocTests checks the two are the same text, between the markers).
import DynamoStore

// BEGIN docs/store.md similarity
final class Memory: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(
            tableName: "Memories",
            vectorIndexes: [
                .vector("byOwner", attribute: "embedding", dimensions: 3, distance: .euclidean, partitionKey: "owner", filters: ["kind"])
            ])
    }
    @Attribute var id: String
    @Attribute var owner: String?
    @Attribute var kind: String?
    @Attribute var embedding: [Float] = []
}

/// Ana's three memories nearest a vector, nearest first, with their scores.
func nearestMemories(in context: ObjectContext) async throws -> [String] {
    let nearest = try await context.fetchNearest(Memory.self, index: "byOwner", to: [1, 0, 0], k: 3, where: ["owner": "ana"])
    return nearest.map { "\($0.object.id) \($0.score)" } // ["a 0.0", "c 1.0", "b 1.4142135381698608"]
}
// END docs/store.md similarity
