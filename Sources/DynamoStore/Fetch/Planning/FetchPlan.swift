import DynamoAPI

/// How a fetch request will read DynamoDB: the operation the planner chose and everything that
/// decides what it costs. ``FetchRequest/explain()`` returns it.
///
/// ```swift
/// let plan = request.explain()
/// print(plan)   // Query on Visits index byCity: key #n0 = :v0 AND #n1 >= :v1, in key order
/// ```
public struct FetchPlan: Sendable, Hashable, CustomStringConvertible {
    /// The DynamoDB operation a fetch runs.
    public enum Operation: String, Sendable, Hashable {
        /// No request: the predicate can never hold.
        case none = "None"
        /// One `GetItem` (the full primary key is fixed by `==`).
        case getItem = "GetItem"
        /// `BatchGetItem` in chunks of 100 keys (the hash key `IN` a set).
        case batchGetItem = "BatchGetItem"
        /// `Query` with a key condition, on the table or an index.
        case query = "Query"
        /// `Scan` of the whole table, with the predicate as a FilterExpression.
        case scan = "Scan"
    }

    /// The operation.
    public var operation: Operation
    /// The table read.
    public var tableName: String
    /// The secondary index queried, if any.
    public var indexName: String?
    /// The `KeyConditionExpression` of a query (with `#n`/`:v` placeholders).
    public var keyCondition: String?
    /// The `FilterExpression` the server applies (queries and scans).
    public var filter: String?
    /// The part of the predicate evaluated in memory after reading: what `GetItem` and
    /// `BatchGetItem` cannot filter, conditions on the queried key attributes that are not a
    /// key condition (a filter may not name them), and conditions on attributes an index does
    /// not project.
    public var memoryFilter: String?
    /// How many keys a `GetItem` or `BatchGetItem` reads.
    public var keyCount: Int
    /// `ScanIndexForward` when the sort is the queried key's order (`nil` otherwise).
    public var scanIndexForward: Bool?
    /// Whether the results are sorted in memory after the fetch (every result is read first).
    public var sortsInMemory: Bool
    /// Whether attributes a global index does not project are read from the table afterwards
    /// (`BatchGetItem` by the keys the index returned).
    public var fetchesFromTable: Bool
    /// Whether a local index's `Query` reads attributes the index does not project from the
    /// table itself (DynamoDB does so for the attributes a request names, at the cost of
    /// extra read units): no further request is sent.
    public var indexReadsFromTable: Bool
    /// The expression attribute names of the request.
    public var expressionAttributeNames: [String: String]
    /// The expression attribute values of the request.
    public var expressionAttributeValues: [String: AttributeValue]

    /// The keys read by `GetItem` / `BatchGetItem`.
    var keys: [Item] = []
    /// The server-side filter, resolved.
    var serverFilter: StoragePredicate?
    /// The in-memory filter, resolved.
    var residual: StoragePredicate = .constant(true)
    /// Attribute names that make up a position in the read order (table keys, then index keys).
    var positionAttributes: [String] = []
    /// Attributes the server filter names that a local index does not project: every read
    /// names them in its ProjectionExpression so the index reads them from the table.
    var unprojectedFilterAttributes: Set<String> = []

    init(operation: Operation, tableName: String) {
        self.operation = operation
        self.tableName = tableName
        keyCount = 0
        sortsInMemory = false
        fetchesFromTable = false
        indexReadsFromTable = false
        expressionAttributeNames = [:]
        expressionAttributeValues = [:]
    }

    /// One line: the operation, where, the key condition, filters and sort.
    public var description: String {
        var text = operation.rawValue
        guard operation != .none else { return "None (the predicate never holds)" }
        text += " on \(tableName)"
        if let indexName { text += " index \(indexName)" }
        if keyCount > 0 { text += " (\(keyCount) key\(keyCount == 1 ? "" : "s"))" }
        if let keyCondition { text += ": key \(keyCondition)" }
        if let filter { text += ", filter \(filter)" }
        if let memoryFilter { text += ", in memory \(memoryFilter)" }
        if fetchesFromTable { text += ", then BatchGetItem from the table" }
        if indexReadsFromTable { text += ", unprojected attributes read from the table by the index" }
        if let scanIndexForward { text += scanIndexForward ? ", in key order" : ", in reverse key order" }
        if sortsInMemory { text += ", sorted in memory" }
        return text
    }
}
