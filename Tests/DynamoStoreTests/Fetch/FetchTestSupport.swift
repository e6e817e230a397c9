import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport

/// The fetch tests' model: visits of users (hash `user`, range `at`) with a global index by
/// city and score, a keys-only global index by note, a keys-only local index by score; places with
/// neighbouring places (a to-many relationship). A visit's place is a to-one relationship.
enum FetchModel {
    static let visit = EntityDescription(
        "Visit", tableName: "Visits", hashKey: "user", rangeKey: "at",
        attributes: [
            AttributeDescription("user", .string), AttributeDescription("at", .int64),
            AttributeDescription("city", .string, isOptional: true),
            AttributeDescription("score", .double, isOptional: true, storageName: "sc"),
            AttributeDescription("note", .string, isOptional: true),
            AttributeDescription("flag", .bool, isOptional: true),
        ],
        relationships: [RelationshipDescription("place", to: "Place")],
        indexes: [
            .global("byCity", partitionKey: "city", sortKey: "score"),
            .global("byNote", partitionKey: "note", projection: .keysOnly),
            .local("byScore", hashKey: "user", sortKey: "score", projection: .keysOnly),
        ])
    static let place = EntityDescription(
        "Place", tableName: "Places", hashKey: "id",
        attributes: [
            AttributeDescription("id", .string), AttributeDescription("name", .string),
            AttributeDescription("rank", .int32, isOptional: true),
        ],
        relationships: [RelationshipDescription("neighbours", to: "Place", toMany: true)])

    static func model() throws -> StoreModel { try StoreModel([visit, place]) }
}

/// A server, a counting client and a store of ``FetchModel`` with its tables created.
struct FetchFixture {
    let store: DynamoStore
    let client: DynamoClient
    let transport: RecordingTransport
    var model: StoreModel { store.model }

    /// Writes items straight to a table (25 per BatchWriteItem), then forgets the counts.
    func put(_ items: [Item], into table: String) async throws {
        try await client.batchWriteAll([table: items.map { WriteRequest(putRequest: PutRequest(item: $0)) }])
        transport.resetCounts()
    }

    /// A request for generic objects of an entity.
    func request(
        _ entity: String, _ format: String? = nil, _ arguments: (any PredicateArgument)?...,
        sortBy: [FetchSort] = []
    ) throws -> FetchRequest<ManagedObject> {
        let predicate = try format.map { format throws(FetchPredicateError) in try FetchPredicate(format: format, arguments: arguments) }
        return try FetchRequest(entity, in: model, predicate: predicate, sortBy: sortBy)
    }

    /// The requests sent per operation since the last reset, then resets.
    func takeCounts() -> [String: Int] {
        let counts = ["GetItem", "BatchGetItem", "Query", "Scan"].reduce(into: [String: Int]()) { counts, operation in
            let count = transport.count(operation)
            if count > 0 { counts[operation] = count }
        }
        transport.resetCounts()
        return counts
    }
}

/// Runs `body` against a fresh in-process server with ``FetchModel``'s tables.
func withFetchStore<T>(_ body: (FetchFixture) async throws -> T) async throws -> T {
    try await withStore(model: try FetchModel.model()) { fixture in
        try await body(FetchFixture(store: fixture.store, client: fixture.client, transport: fixture.transport))
    }
}

/// A visit item as stored.
func visitItem(
    _ user: String, _ at: Int, city: String? = nil, score: Double? = nil, note: String? = nil,
    flag: Bool? = nil, place: String? = nil
) -> Item {
    var item: Item = ["user": .s(user), "at": .n(DynamoNumber(at))]
    if let city { item["city"] = .s(city) }
    if let score { item["sc"] = .n(try! DynamoNumber(parsing: "\(score)")) }
    if let note { item["note"] = .s(note) }
    if let flag { item["flag"] = .bool(flag) }
    if let place { item["place"] = .s(place) }
    return item
}
