import DynamoAPI

/// Where a fetch stopped, to continue it later: the key of the last object returned (DynamoDB's
/// `ExclusiveStartKey`), never an offset — DynamoDB has none.
///
/// Keep it in memory, or as its ``token`` (a string, e.g. for a web API's "next page" link):
///
/// ```swift
/// var request = try FetchRequest("Checkin", in: model, predicate: p)
/// request.fetchLimit = 20
/// let first = try await context.fetchPage(request)
/// request.cursor = first.cursor                  // nil when nothing is left
/// let second = try await context.fetchPage(request)
/// ```
public struct FetchCursor: Sendable, Hashable {
    /// The table read.
    let tableName: String
    /// The index read, if any.
    let indexName: String?
    /// The key of the last item returned (table keys, and the index keys for an index).
    let lastKey: Item

    init(tableName: String, indexName: String?, lastKey: Item) {
        self.tableName = tableName
        self.indexName = indexName
        self.lastKey = lastKey
    }

    /// The cursor as an opaque string.
    public var token: String {
        let text = [tableName, indexName ?? "", AttributeValue.m(lastKey).description].joined(separator: "\n")
        return Base64.encode(Array(text.utf8))
    }

    /// Reads a cursor from its ``token``.
    ///
    /// - Throws: ``FetchPredicateError`` when the token was not made by ``token``.
    public init(token: String) throws(FetchPredicateError) {
        guard case .success(let bytes) = Base64.decode(token) else { throw FetchPredicateError("not a fetch cursor token") }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3,
            let json = try? JSONValue(parsing: String(parts[2])),
            case .m(let key)? = try? AttributeValue(json: json)
        else { throw FetchPredicateError("not a fetch cursor token") }
        self.init(tableName: String(parts[0]), indexName: parts[1].isEmpty ? nil : String(parts[1]), lastKey: key)
    }

    /// Checks that the cursor continues this plan's read.
    func check(against plan: FetchPlan) throws(FetchPredicateError) {
        guard plan.operation == .query || plan.operation == .scan else {
            throw FetchPredicateError(
                "a cursor continues a Query or Scan; this request is planned as \(plan.operation.rawValue), which reads everything at once")
        }
        guard !plan.sortsInMemory else {
            throw FetchPredicateError("a cursor continues DynamoDB's order; this request sorts in memory, so it has no position to continue from")
        }
        guard tableName == plan.tableName, indexName == plan.indexName else {
            throw FetchPredicateError(
                "the cursor is from a read of \(tableName)\(indexName.map { " index \($0)" } ?? ""), not of this request's \(plan.tableName)\(plan.indexName.map { " index \($0)" } ?? "")"
            )
        }
    }
}
