import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// SearchVectors against a brute-force reference: seeded random vectors, dimensions, search
/// schemas, filters and writes (puts, updates, deletes, TTL expiry), for every distance function.
@Suite("Vector search, randomized")
struct VectorSearchPropertyTests {
    typealias F = VectorFixtures

    /// The reference's view of one item.
    struct Model {
        var vector: [Float]?
        var tenant: String?
        var kind: String?
    }

    /// The reference score, in f64 from the same f32 inputs (the engine sums in f32 by SIMD
    /// lanes, so the two agree to a few ulps, not bit for bit).
    static func reference(_ function: VectorDistanceFunction, _ query: [Float], _ vector: [Float]) -> Double {
        let q = query.map(Double.init)
        let v = vector.map(Double.init)
        let dot = zip(q, v).reduce(0) { $0 + $1.0 * $1.1 }
        switch function {
        case .dotProduct: return dot
        case .euclidean: return zip(q, v).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        default:
            let norms = (q.reduce(0) { $0 + $1 * $1 }).squareRoot() * (v.reduce(0) { $0 + $1 * $1 }).squareRoot()
            return norms == 0 ? 1 : 1 - dot / norms
        }
    }

    static func randomVector(_ dimensions: Int, _ random: inout SeededRandom) -> [Float] {
        // Three decimals: the item's number text is exact, the f32 the index holds is its rounding.
        (0..<dimensions).map { _ in Float(Int.random(in: -1000...1000, using: &random)) / 1000 }
    }

    @Test("SearchVectors returns the true nearest TopK", arguments: [VectorDistanceFunction.cosine, .euclidean, .dotProduct], 1...4)
    func matchesBruteForce(function: VectorDistanceFunction, seed: UInt64) throws {
        var random = SeededRandom(seed: seed &* 7919 &+ UInt64(function.rawValue.count))
        let dimensions = Int.random(in: 1...20, using: &random)
        let hashed = Bool.random(using: &random)
        let database = try Database(path: nil, region: "us-east-1")
        let schema: [(String, SearchSchemaElementType)] = (hashed ? [("tenant", .hash)] : []) + [("kind", .inlineFilter)]
        try F.makeTable(
            database, indexes: [F.index(dimensions: dimensions, function: function, schema: schema)], definitions: schema.map(\.0))
        _ = try database.updateTimeToLive(
            UpdateTimeToLiveInput(tableName: "Vectors", timeToLiveSpecification: TimeToLiveSpecification(enabled: true, attributeName: "expires")))
        let tenants = ["a", "b"]
        let kinds = ["x", "y", "z"]
        var model: [String: Model] = [:]
        var expiring: Set<String> = []
        let now = database.clock.now()

        for step in 0..<300 {
            let key = "k\(Int.random(in: 0..<80, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                // A put: sometimes without the vector, the tenant or the kind; sometimes expiring.
                var item: Item = ["pk": .s(key)]
                var entry = Model()
                if Int.random(in: 0..<10, using: &random) > 0 { entry.vector = Self.randomVector(dimensions, &random) }
                if Int.random(in: 0..<10, using: &random) > 0 { entry.tenant = tenants.randomElement(using: &random) }
                if Int.random(in: 0..<4, using: &random) > 0 { entry.kind = kinds.randomElement(using: &random) }
                if let vector = entry.vector { item["emb"] = F.vector(vector) }
                if let tenant = entry.tenant { item["tenant"] = .s(tenant) }
                if let kind = entry.kind { item["kind"] = .s(kind) }
                if Int.random(in: 0..<8, using: &random) == 0 {
                    item["expires"] = .n(DynamoNumber(Int(now) + 10))
                    expiring.insert(key)
                } else {
                    expiring.remove(key)
                }
                _ = try database.putItem(PutItemInput(tableName: "Vectors", item: item))
                model[key] = entry
            case 5..<7:
                // An update of the vector (or its removal).
                if Bool.random(using: &random) {
                    let vector = Self.randomVector(dimensions, &random)
                    _ = try database.updateItem(
                        UpdateItemInput(
                            tableName: "Vectors", key: ["pk": .s(key)], updateExpression: "SET emb = :v",
                            expressionAttributeValues: [":v": F.vector(vector)]))
                    var entry = model[key] ?? Model()
                    entry.vector = vector
                    model[key] = entry
                } else {
                    _ = try database.updateItem(UpdateItemInput(tableName: "Vectors", key: ["pk": .s(key)], updateExpression: "REMOVE emb"))
                    if model[key] != nil { model[key]?.vector = nil } else { model[key] = Model() }
                }
            case 7:
                _ = try database.deleteItem(DeleteItemInput(tableName: "Vectors", key: ["pk": .s(key)]))
                model[key] = nil
                expiring.remove(key)
            default:
                // A vector of the wrong length is refused and changes nothing.
                #expect(throws: DynamoError.self) {
                    _ = try database.putItem(
                        PutItemInput(tableName: "Vectors", item: ["pk": .s(key), "emb": F.vector(Self.randomVector(dimensions + 1, &random))]))
                }
            }
            if step == 200 {
                // TTL: the expiring items go, through the sweeper's deletes.
                try database.clock.advance(by: 20)
                _ = try database.sweepExpiredItems()
                for key in expiring { model[key] = nil }
                expiring.removeAll()
            }
            if step % 25 == 24 {
                try Self.compare(database, model: model, function: function, dimensions: dimensions, hashed: hashed, random: &random)
            }
        }
        #expect(try database.checkInvariants().violations.isEmpty)
    }

    /// One random search, checked against the model: the same number of results, each an item
    /// the filters admit with its reference score, ranked as the reference ranks them.
    static func compare(
        _ database: Database, model: [String: Model], function: VectorDistanceFunction, dimensions: Int, hashed: Bool,
        random: inout SeededRandom
    ) throws {
        let query = randomVector(dimensions, &random)
        let topK = Int.random(in: 1...15, using: &random)
        let tenant = ["a", "b"].randomElement(using: &random)!
        let kind: String? = Bool.random(using: &random) ? ["x", "y", "z"].randomElement(using: &random) : nil
        var terms: [String] = []
        var values: [String: AttributeValue] = [:]
        if hashed {
            terms.append("tenant = :t")
            values[":t"] = .s(tenant)
        }
        if let kind {
            terms.append("kind = :k")
            values[":k"] = .s(kind)
        }
        let output = try database.searchVectors(
            SearchVectorsInput(
                tableName: "Vectors", indexName: "vix", expressionAttributeValues: values.isEmpty ? nil : values,
                searchVector: F.search(query), searchConditionExpression: terms.isEmpty ? nil : terms.joined(separator: " AND "), topK: topK))
        let eligible = model.filter { _, entry in
            entry.vector != nil && (!hashed || entry.tenant == tenant) && (kind == nil || entry.kind == kind)
        }
        let scored = eligible.map { key, entry in (key, Self.reference(function, query, entry.vector!)) }
        let better: (Double, Double) -> Bool = function == .dotProduct ? { $0 > $1 } : { $0 < $1 }
        let expected = scored.sorted { better($0.1, $1.1) || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(topK)
        let results = output.searchResults ?? []
        #expect(results.count == expected.count)
        let tolerance = 1e-4
        for (position, (result, reference)) in zip(results, expected).enumerated() {
            guard case .s(let key)? = result.item?["pk"] else {
                Issue.record("a result without its key")
                continue
            }
            let entry = try #require(eligible[key], "result \(key) is not an eligible item")
            let own = Self.reference(function, query, entry.vector!)
            #expect(abs(own - result.score!) <= tolerance, "score of \(key)")
            // The true k-th best, within rounding: a near tie may swap places, nothing more.
            #expect(abs(reference.1 - result.score!) <= tolerance, "position \(position): \(key) \(result.score!) vs \(reference.0) \(reference.1)")
            #expect(result.item?["emb"] == nil)
        }
    }
}
