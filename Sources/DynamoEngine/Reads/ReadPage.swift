import DynamoAPI

/// How a Query or Scan reads: the parts of the request that shape a page.
package struct ReadOptions: Sendable {
    /// Items to evaluate (before any filter), as DynamoDB's `Limit`.
    package var limit: Int?
    /// The `ExclusiveStartKey` of the request.
    package var exclusiveStartKey: Item?
    package var consistentRead: Bool
    /// Only count (`Select=COUNT`): no items in the page.
    package var countOnly: Bool
    /// The filter (FilterExpression or legacy filter), applied after the read, before the count.
    package var filter: (@Sendable (Item) -> Bool)?
    /// The projection to return, if not all attributes.
    package var projection: (@Sendable (Item) -> Item)?

    package init(
        limit: Int? = nil, exclusiveStartKey: Item? = nil, consistentRead: Bool = false,
        countOnly: Bool = false, filter: (@Sendable (Item) -> Bool)? = nil,
        projection: (@Sendable (Item) -> Item)? = nil
    ) {
        self.limit = limit
        self.exclusiveStartKey = exclusiveStartKey
        self.consistentRead = consistentRead
        self.countOnly = countOnly
        self.filter = filter
        self.projection = projection
    }
}

/// One page of a Query or Scan.
package struct ReadPage: Sendable {
    /// The matching items' wire JSON (empty when only counting).
    package var items: [[UInt8]]
    /// Items that passed the filter.
    package var count: Int
    /// Items read, before the filter.
    package var scannedCount: Int
    /// Where the next page starts, when this one stopped early.
    package var lastEvaluatedKey: Item?
    /// Read capacity consumed: on the table, or on the index a read by `IndexName` walked.
    package var capacity: ConsumedUnits
}

/// Fills a page from successive batches of rows, applying DynamoDB's paging rules: `Limit`
/// counts rows read before the filter, and a page stops once it has read 1 MB.
struct ReadPager {
    /// DynamoDB's page size limit on data read.
    static let maximumPageBytes = 1024 * 1024
    private static let batchSize = 128

    let table: TableDefinition
    let options: ReadOptions
    /// The index being read, if any (its key joins the table key in `LastEvaluatedKey`).
    var index: IndexDefinition?
    /// Replaces an index entry by the full table item (an LSI read of unprojected attributes).
    var fetch: ((ItemStore.Row) throws -> [UInt8]?)?
    /// What an eventually consistent read sees of each row, in `service` mode (``EventualOverlay``).
    var overlay: EventualOverlay?
    /// The rows such a read sees that the database no longer holds (``GhostMerge``).
    var ghosts: GhostMerge?

    /// Reads batches from `next(after:count:)` until the page is full or the rows run out.
    func page(_ next: (_ after: ItemStore.Row?, _ count: Int) throws -> [ItemStore.Row]) throws -> ReadPage {
        var page = ReadPage(items: [], count: 0, scannedCount: 0, lastEvaluatedKey: nil, capacity: ConsumedUnits())
        var bytesRead = 0
        var last: ItemStore.Row?
        var stoppedEarly = false
        reading: while true {
            let wanted = min(Self.batchSize, options.limit.map { $0 - page.scannedCount } ?? Self.batchSize)
            let fetched = try next(last, wanted)
            let rows = ghosts?.merge(after: last, fetched, exhausted: fetched.count < wanted) ?? fetched
            for row in rows {
                page.scannedCount += 1
                bytesRead += row.size
                last = row
                try take(row, into: &page)
                if let limit = options.limit, page.scannedCount >= limit {
                    stoppedEarly = true
                    break reading
                }
                if bytesRead >= Self.maximumPageBytes {
                    stoppedEarly = true
                    break reading
                }
            }
            if fetched.count < wanted { break }
        }
        if stoppedEarly, let last {
            page.lastEvaluatedKey = try lastEvaluatedKey(for: last)
        }
        // Rounded once per operation, on the summed size of everything read.
        let units = Capacity.readUnits(size: bytesRead, consistent: options.consistentRead)
        if let index { page.capacity.add(units, on: index) } else { page.capacity.table = units }
        return page
    }

    private func take(_ row: ItemStore.Row, into page: inout ReadPage) throws {
        var row = row
        var visibleItem: [UInt8]?
        if let overlay {
            guard let seen = try overlay.visible(row) else { return }
            (row, visibleItem) = seen
        }
        if let fetch {
            guard let json = try visibleItem ?? fetch(row) else { return }
            row.json = json
        }
        guard options.filter != nil || options.projection != nil else {
            page.count += 1
            if !options.countOnly { page.items.append(row.json) }
            return
        }
        let item = try AttributeValue.decodeItem(bytes: row.json)
        if let filter = options.filter, !filter(item) { return }
        page.count += 1
        guard !options.countOnly else { return }
        if let projection = options.projection {
            page.items.append(ItemJSON.encode(projection(item)))
        } else {
            page.items.append(row.json)
        }
    }

    /// The key attributes of the last row read: the table key, plus the index key for an index.
    private func lastEvaluatedKey(for row: ItemStore.Row) throws -> Item {
        var key = table.keyItem(of: row.tableKey ?? row.key)
        if let index {
            key.merge(index.keyItem(of: row.key)) { _, index in index }
        }
        return key
    }
}
