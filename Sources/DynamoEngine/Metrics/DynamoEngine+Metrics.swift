import Synchronization

/// Counters the engine keeps for `/metrics` (beside what it can read from its tables).
package final class EngineCounters: Sendable {
    private let ttlDeletions = Atomic<Int>(0)

    package init() {}

    /// Items the TTL sweeper deleted since start (every namespace).
    package var ttlDeletedItems: Int { ttlDeletions.load(ordering: .relaxed) }

    func countTTLDeletions(_ count: Int) { ttlDeletions.wrappingAdd(count, ordering: .relaxed) }
}

/// One table's numbers for `/metrics`.
package struct TableMetrics: Sendable {
    package var namespace: String
    package var table: String
    package var items: Int64
    package var bytes: Int64
    /// Stream records written for the table since its streams were created.
    package var streamRecords: Int64
}

extension DynamoEngine {
    /// Items, bytes and stream records of every table of every open namespace, ordered by
    /// namespace and table. Blocking (SQLite): call it off the event loops.
    package func tableMetrics() throws -> [TableMetrics] {
        var result: [TableMetrics] = []
        for (namespace, database) in openDatabases.sorted(by: { $0.key < $1.key }) {
            let records = try database.read { connection in
                // Sequence numbers start at 1 in each stream and grow by one per record.
                let statement = try connection.statement(
                    "SELECT table_name, SUM(\(StreamCatalog.nextSequenceSQL) - 1) FROM streams GROUP BY table_name")
                var counts: [String: Int64] = [:]
                while try statement.step() { counts[statement.text(0)] = statement.int64(1) }
                return counts
            }
            for (name, definition) in database.tables.sorted(by: { $0.key < $1.key }) {
                // A table deleted since the list was taken has nothing left to report.
                guard let counted = try? database.statistics(of: definition) else { continue }
                result.append(
                    TableMetrics(
                        namespace: namespace, table: name, items: counted.itemCount,
                        bytes: counted.sizeBytes, streamRecords: records[name] ?? 0))
            }
        }
        return result
    }
}

extension DynamoEngine {
    /// SQLite page-cache hits and misses per open namespace, ordered by namespace.
    package func pageCacheMetrics() -> [(namespace: String, counts: PageCacheCounts)] {
        openDatabases.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value.pageCacheCounts()) }
    }
}
