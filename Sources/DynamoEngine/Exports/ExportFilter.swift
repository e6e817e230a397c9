import DynamoAPI
import DynamoExpressions

/// A filtered export's `FilterSpecification`, compiled by the expression module as a Query's
/// expressions are, and checked against the table's key schema.
///
/// The rules are the developer guide's ("Filtering a table export"): the key condition is a
/// Query's (equality on the one partition key value, an optional sort key condition, no other
/// attribute); the filter is a Scan's, so it may read key attributes, except that with a key
/// condition it may only read non-key attributes (as a Query's filter); the projection is any
/// read's. The placeholder rules (names and values without expressions, undefined and unused
/// ones) cover the three expressions together.
///
/// ```swift
/// let filter = try ExportFilter(
///     FilterSpecification(keyConditionExpression: "pk = :p", expressionAttributeValues: [":p": .s("a")]),
///     table: table)
/// filter?.admits(key: storedKey, item: item)   // true for the items of partition "a"
/// ```
struct ExportFilter: Sendable {
    /// The key condition's partition (`nil`: every partition) and sort key range.
    private var partition: [UInt8]?
    private var range = SortKeyRange.all
    private var filter: Predicate?
    private var projection: ProjectionPlan?

    /// The compiled filter, or `nil` when there is no specification.
    ///
    /// - Throws: the ValidationException a Query or Scan with these expressions would get.
    init?(_ specification: FilterSpecification?, table: TableDefinition) throws {
        guard let specification else { return nil }
        var input = ExpressionInput(.query)
        input.keyConditionExpression = specification.keyConditionExpression
        input.filterExpression = specification.filterExpression
        input.projectionExpression = specification.projectionExpression
        input.names = specification.expressionAttributeNames
        input.values = specification.expressionAttributeValues
        let compiled = try ExpressionCompiler.compile(input)
        try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
        if let written = compiled.keyCondition {
            let spec = try KeyConditionBinding.spec(
                written.terms, partitionKey: table.partitionKey, sortKey: table.sortKey, fromExpression: true)
            let (key, range) = try table.resolve(spec, partitionKey: table.partitionKey, sortKey: table.sortKey)
            partition = key.partition
            self.range = range
            try compiled.checkQueryFilter(keys: table.keyAttributes.map(\.name))
        }
        filter = compiled.filter
        projection = compiled.projection
    }

    /// Whether the item stored under `key` is exported: its key meets the key condition and
    /// the item the filter.
    func admits(key: StoredKey, item: Item) -> Bool {
        if let partition, key.partition != partition || !range.contains(key.sort) { return false }
        return filter?.evaluate(item) ?? true
    }

    /// The attributes of `item` the export writes.
    func projected(_ item: Item) -> Item {
        projection?.apply(to: item) ?? item
    }
}
