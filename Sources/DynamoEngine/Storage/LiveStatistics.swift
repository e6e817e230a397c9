/// Live counts for DescribeTable: DynamoDB refreshes these every six hours; we keep them exact.
struct TableStatistics: Sendable, Equatable {
    var itemCount: Int64
    var sizeBytes: Int64

    static let empty = TableStatistics(itemCount: 0, sizeBytes: 0)
}

/// A table's live statistics and those of each of its secondary and vector indexes (by storage
/// number, so an index deleted and created again under the same name never inherits the old
/// counts).
struct LiveStatistics: Sendable, Equatable {
    var table: TableStatistics
    var indexes: [Int: TableStatistics]
    /// Each vector index's entries and the sum of their projected sizes (``VectorStore``), by
    /// the index's storage number: `ItemCount` and `IndexSizeBytes` without counting the index's
    /// rows on each DescribeTable.
    var vectorIndexes: [Int: TableStatistics] = [:]

    static let empty = LiveStatistics(table: .empty, indexes: [:])

    /// The rows of `definition` counted: its items and each secondary and vector index's
    /// entries. O(rows): used the first time a table's statistics are needed after the database
    /// is opened (or replaced by a snapshot), and after a bulk fill.
    static func count(_ definition: TableDefinition, connection: SQLiteConnection) throws -> LiveStatistics {
        var counted = LiveStatistics(table: try ItemStore(table: definition, connection: connection).statistics(), indexes: [:])
        for index in definition.indexes {
            counted.indexes[index.storageNumber] = try IndexStore(table: definition, index: index, connection: connection).statistics()
        }
        for index in definition.vectorIndexes {
            let (itemCount, sizeBytes) = try VectorStore(table: definition, index: index, connection: connection).statistics()
            counted.vectorIndexes[index.storageNumber] = TableStatistics(itemCount: itemCount, sizeBytes: sizeBytes)
        }
        return counted
    }
}

/// The writer's live statistics of every table (see ``LiveStatistics``), changed inside the
/// write transactions that change the rows, and published to readers with the definitions
/// after each commit (``Database/publishAfterCommit(_:)``).
///
/// A stored table's statistics are not known until they are first needed (a write to it,
/// DescribeTable, `/metrics`): opening a database counts no rows, so a server with a large file
/// starts at once; ``Database/countedTable(_:)`` counts them on the writer.
///
/// Owned by the writer's state: only touched under the writer's lock. A class so the item and
/// index stores of a write can reach it (an index entry's change is known only where the entry
/// is written, ``IndexStore``); a failed write or savepoint puts back the `tables` it saved.
final class StatisticsLedger {
    /// The statistics of every table whose rows have been counted, by table name; a table
    /// missing here has statistics not known yet.
    var tables: [String: LiveStatistics] = [:]
    /// Tables whose statistics changed since they were last published (a name may repeat).
    private(set) var unpublished: [String] = []
    /// The last name appended to `unpublished`: a run of writes to one table records it once.
    private var lastUnpublished: String?

    subscript(name: String) -> LiveStatistics? {
        get { tables[name] }
        set {
            tables[name] = newValue
            markUnpublished(name)
        }
    }

    /// One item of `table` removed (its size), added, or both (a replacement).
    ///
    /// - Returns: `false` when the table's statistics are not known.
    func recordItem(of table: String, removed: Int?, added: Int?) -> Bool {
        guard tables[table]?.table.apply(removed: removed, added: added) != nil else { return false }
        markUnpublished(table)
        return true
    }

    /// An index's entries changed by `entries`, their total size by `bytes`.
    func recordIndex(of table: String, index storageNumber: Int, entries: Int64, bytes: Int64) {
        guard entries != 0 || bytes != 0 else { return }
        // Unknown table statistics are counted from the rows (with this change) when the write
        // records its item: nothing to adjust until then.
        guard tables[table]?.indexes[storageNumber]?.adjust(entries: entries, bytes: bytes) != nil else { return }
        markUnpublished(table)
    }

    /// A vector index's entries changed by `entries`, their total projected size by `bytes`
    /// (``VectorStore``); nothing to adjust while the table's statistics are not known, as for
    /// ``recordIndex(of:index:entries:bytes:)``.
    func recordVectorIndex(of table: String, index storageNumber: Int, entries: Int64, bytes: Int64) {
        guard entries != 0 || bytes != 0 else { return }
        guard tables[table]?.vectorIndexes[storageNumber]?.adjust(entries: entries, bytes: bytes) != nil else { return }
        markUnpublished(table)
    }

    /// Makes the index statistics of `definition`'s table match its indexes (secondary and
    /// vector): a new index starts empty (its SQLite table was just created), a removed one is forgotten. A table whose
    /// statistics are not known stays so (its rows, new indexes' included, are counted when
    /// first needed); a new table's are set to empty by its creator.
    func align(with definition: TableDefinition) {
        guard var statistics = tables[definition.name] else { return }
        var indexes: [Int: TableStatistics] = [:]
        for index in definition.indexes { indexes[index.storageNumber] = statistics.indexes[index.storageNumber] ?? .empty }
        var vectorIndexes: [Int: TableStatistics] = [:]
        for index in definition.vectorIndexes {
            vectorIndexes[index.storageNumber] = statistics.vectorIndexes[index.storageNumber] ?? .empty
        }
        guard indexes != statistics.indexes || vectorIndexes != statistics.vectorIndexes else { return }
        statistics.indexes = indexes
        statistics.vectorIndexes = vectorIndexes
        self[definition.name] = statistics
    }

    /// Whether statistics changed since they were last published.
    var hasUnpublished: Bool { !unpublished.isEmpty }

    /// Hands each table's statistics that changed since they were last published to `body`,
    /// then counts them as published.
    func publish(_ body: (String, LiveStatistics) -> Void) {
        for name in unpublished {
            if let statistics = tables[name] { body(name, statistics) }
        }
        forgetUnpublished()
    }

    /// Counts every change as published (the catalog was replaced as a whole).
    func forgetUnpublished() {
        unpublished.removeAll(keepingCapacity: true)
        lastUnpublished = nil
    }

    private func markUnpublished(_ name: String) {
        guard name != lastUnpublished else { return }
        lastUnpublished = name
        unpublished.append(name)
    }
}

extension TableStatistics {
    /// Applies one item's (or entry's) removal and addition; returns nothing, for optional chaining.
    mutating func apply(removed: Int?, added: Int?) {
        if let removed {
            itemCount -= 1
            sizeBytes -= Int64(removed)
        }
        if let added {
            itemCount += 1
            sizeBytes += Int64(added)
        }
    }

    mutating func adjust(entries: Int64, bytes: Int64) {
        itemCount += entries
        sizeBytes += bytes
    }
}

/// What readers see of one table: its definition and the statistics of the same commit
/// (`nil` until they are first counted, see ``StatisticsLedger``).
struct PublishedTable: Sendable {
    var definition: TableDefinition
    var statistics: LiveStatistics?
}
