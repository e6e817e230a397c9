import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// One storage invariant that does not hold.
package struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
    /// The DynamoDB table concerned, if any.
    package var table: String?
    /// What is wrong, in words.
    package var message: String

    package var description: String {
        table.map { "table \($0): \(message)" } ?? message
    }
}

/// What the checker saw, for `localdynamo check`.
package struct InvariantReport: Sendable {
    package var tables = 0
    package var items = 0
    package var indexEntries = 0
    package var violations: [InvariantViolation] = []
}

extension Database {
    /// Checks every invariant of the stored data under the writer's lock (so it sees one
    /// consistent state and nothing changes meanwhile):
    ///
    /// - SQLite's own `PRAGMA integrity_check`;
    /// - every catalog row decodes, storage ids are unique, and the cached catalog matches it;
    /// - every item row parses, its key columns are the encoding of the item's key attributes,
    ///   and its `size` is the item's DynamoDB size;
    /// - every entry of every ACTIVE index is exactly the entry its item implies (key, projected
    ///   attributes, size), with no entry missing and none left over;
    /// - a table with TTL on has an expiry index holding exactly its items' TTL Numbers;
    /// - every vector index holds exactly the entries its items imply (``VectorEntry``);
    /// - the live item and index entry counts and sizes (the writer's, and the ones published
    ///   to DescribeTable with each definition) equal the stored ones, for every table whose
    ///   statistics are known (none is published that the writer does not know);
    /// - no SQLite item, index or expiry table is left without a catalog entry (or, for an
    ///   expiry table, without TTL on).
    ///
    /// Used by engine tests after randomized workloads, by the crash tests after restarts, and by
    /// `localdynamo check`. Reads every row: O(items) time and memory per index.
    package func checkInvariants() throws -> InvariantReport {
        try writer.withLock { state in
            var report = InvariantReport()
            let connection = state.connection
            let integrity = try connection.statement("PRAGMA integrity_check")
            while try integrity.step() {
                let line = integrity.text(0)
                if line != "ok" { report.violations.append(InvariantViolation(message: "integrity_check: \(line)")) }
            }
            let catalog = try Self.readCatalog(connection, report: &report)
            let cached = catalogSnapshot.withLock { $0 }
            let live = state.statistics.tables
            // A table's live statistics may not be known yet (not needed since the open).
            if Set(cached.keys) != Set(catalog.keys) || !Set(live.keys).isSubset(of: catalog.keys) {
                report.violations.append(
                    InvariantViolation(
                        message:
                            "cached catalog \(cached.keys.sorted()) or live statistics \(live.keys.sorted()) differ from stored \(catalog.keys.sorted())"
                    ))
            }
            var expectedTables: Set<String> = []
            for definition in catalog.values.sorted(by: { $0.name < $1.name }) {
                report.tables += 1
                let store = ItemStore(table: definition, connection: connection)
                expectedTables.insert(store.name)
                let items = try checkItems(store, report: &report)
                for index in definition.indexes {
                    expectedTables.insert(IndexStore.name(table: definition, index: index))
                    guard index.status == .active else { continue }
                    try checkIndex(
                        IndexStore(table: definition, index: index, connection: connection),
                        items: items, report: &report)
                }
                for index in definition.vectorIndexes {
                    let vectors = VectorStore(table: definition, index: index, connection: connection)
                    expectedTables.insert(vectors.name)
                    // A building index holds the items its chunks reached and those written since.
                    guard index.building != true else { continue }
                    try checkVectorIndex(vectors, items: items, report: &report)
                }
                if definition.expiryAttribute != nil {
                    let expiry = ExpiryIndex(storageID: definition.storageID, connection: connection)
                    expectedTables.insert(expiry.name)
                    try checkExpiryIndex(expiry, of: definition, items: items, report: &report)
                }
                report.violations += Self.checkStatistics(
                    of: definition, live: live[definition.name], published: cached[definition.name],
                    stored: try LiveStatistics.count(definition, connection: connection))
            }
            let names = try connection.statement(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'items\\_%' ESCAPE '\\' OR name LIKE 'index\\_%' ESCAPE '\\' OR name LIKE 'ttl\\_%' ESCAPE '\\' OR name LIKE 'vec\\_%' ESCAPE '\\')"
            )
            while try names.step() {
                let name = names.text(0)
                if !expectedTables.contains(name) {
                    report.violations.append(InvariantViolation(message: "orphan SQLite table \(name)"))
                }
            }
            return report
        }
    }

    /// Compares a table's live statistics (table and every index, vector indexes too, whatever
    /// its status) and
    /// the published ones to the counts of its stored rows.
    private static func checkStatistics(
        of definition: TableDefinition, live: LiveStatistics?, published: PublishedTable?,
        stored: LiveStatistics
    ) -> [InvariantViolation] {
        guard let live else {
            // Not counted yet: nor may readers have any (published ones would be stale).
            guard published?.statistics != nil else { return [] }
            return [InvariantViolation(table: definition.name, message: "published statistics the writer does not know")]
        }
        var violations: [InvariantViolation] = []
        func compare(_ what: String, _ live: TableStatistics?, _ stored: TableStatistics?) {
            guard live != stored else { return }
            let show = { (statistics: TableStatistics?) in
                statistics.map { "\($0.itemCount) / \($0.sizeBytes) bytes" } ?? "none"
            }
            violations.append(
                InvariantViolation(table: definition.name, message: "\(what): live statistics \(show(live)), stored \(show(stored))"))
        }
        compare("items", live.table, stored.table)
        for index in definition.indexes {
            compare("index \(index.name)", live.indexes[index.storageNumber], stored.indexes[index.storageNumber])
        }
        for index in definition.vectorIndexes {
            compare(
                "vector index \(index.name)", live.vectorIndexes[index.storageNumber], stored.vectorIndexes[index.storageNumber])
        }
        if Set(live.indexes.keys) != Set(stored.indexes.keys) || Set(live.vectorIndexes.keys) != Set(stored.vectorIndexes.keys) {
            violations.append(InvariantViolation(table: definition.name, message: "live statistics of indexes that do not exist"))
        }
        if published?.statistics != live {
            violations.append(InvariantViolation(table: definition.name, message: "published statistics differ from the writer's"))
        }
        return violations
    }

    private static func readCatalog(
        _ connection: SQLiteConnection,
        report: inout InvariantReport
    ) throws -> [String: TableDefinition] {
        var catalog: [String: TableDefinition] = [:]
        var storageIDs: Set<Int64> = []
        let rows = try connection.statement("SELECT name, storage_id, definition FROM catalog")
        while try rows.step() {
            let name = rows.text(0)
            guard let definition = try? JSONDecoder().decode(TableDefinition.self, from: Data(rows.blob(2))) else {
                report.violations.append(InvariantViolation(table: name, message: "catalog definition does not decode"))
                continue
            }
            if definition.name != name || definition.storageID != rows.int64(1) {
                report.violations.append(InvariantViolation(table: name, message: "catalog row and definition disagree"))
            }
            if !storageIDs.insert(definition.storageID).inserted {
                report.violations.append(InvariantViolation(table: name, message: "storage id \(definition.storageID) used twice"))
            }
            catalog[name] = definition
        }
        return catalog
    }

    /// Checks every item row; returns the decoded items by stored key.
    private func checkItems(_ store: ItemStore, report: inout InvariantReport) throws -> [StoredKey: Item] {
        var items: [StoredKey: Item] = [:]
        let table = store.table
        let rows = try store.connection.statement("SELECT hash, pk, sk, size, item FROM \(store.name)")
        while try rows.step() {
            report.items += 1
            let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
            guard let item = try? AttributeValue.decodeItem(bytes: rows.blob(4)) else {
                report.violations.append(InvariantViolation(table: table.name, message: "an item's JSON does not parse"))
                continue
            }
            let expectedKey = try? table.storedKey(forItem: item)
            if expectedKey != key {
                report.violations.append(
                    InvariantViolation(
                        table: table.name, message: "item \(table.keyOnly(item)) is stored under another key"))
            }
            if Int(rows.int64(3)) != ItemSize.of(item) {
                report.violations.append(
                    InvariantViolation(
                        table: table.name, message: "item \(table.keyOnly(item)) has size \(rows.int64(3)), not \(ItemSize.of(item))"))
            }
            items[key] = item
        }
        return items
    }

    /// Checks an index's entries against the entries its table's items imply.
    private func checkIndex(_ index: IndexStore, items: [StoredKey: Item], report: inout InvariantReport) throws {
        struct EntryKey: Hashable { var index: StoredKey; var partition: [UInt8]; var sort: [UInt8] }
        var expected: [EntryKey: Item] = [:]
        for (tableKey, item) in items {
            // An item whose index key has the wrong type has no entry (as DynamoDB's backfill).
            guard let key = try? index.indexKey(of: item) else { continue }
            expected[EntryKey(index: key, partition: tableKey.partition, sort: tableKey.sort)] = index.project(item)
        }
        let label = "index \(index.index.name)"
        let rows = try index.connection.statement("SELECT hash, pk, sk, tpk, tsk, size, item FROM \(index.name)")
        while try rows.step() {
            report.indexEntries += 1
            let key = EntryKey(
                index: StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2)),
                partition: rows.blob(3), sort: rows.blob(4))
            guard let want = expected.removeValue(forKey: key) else {
                report.violations.append(InvariantViolation(table: index.table.name, message: "\(label) has an entry with no item"))
                continue
            }
            let entry = try? AttributeValue.decodeItem(bytes: rows.blob(6))
            if entry != want || Int(rows.int64(5)) != ItemSize.of(want) {
                report.violations.append(
                    InvariantViolation(
                        table: index.table.name, message: "\(label) entry of \(index.table.keyOnly(want)) differs from its item"))
            }
        }
        for want in expected.values {
            report.violations.append(
                InvariantViolation(
                    table: index.table.name, message: "\(label) misses the entry of \(index.table.keyOnly(want))"))
        }
    }

    /// Checks a table's expiry index against the TTL attribute of its items.
    private func checkExpiryIndex(
        _ expiry: ExpiryIndex, of table: TableDefinition, items: [StoredKey: Item],
        report: inout InvariantReport
    ) throws {
        let stored: [StoredKey: Double]
        do {
            stored = try expiry.all()
        } catch {
            report.violations.append(InvariantViolation(table: table.name, message: "expiry index cannot be read: \(error)"))
            return
        }
        var expected: [StoredKey: Double] = [:]
        for (key, item) in items {
            expected[key] = ExpiryIndex.expiry(of: table.expiryAttribute.flatMap { item[$0] })
        }
        for (key, value) in stored where expected[key] != value {
            let item = items[key].map { table.keyOnly($0) }
            report.violations.append(
                InvariantViolation(
                    table: table.name,
                    message:
                        "expiry index holds \(value) for \(item.map { "\($0)" } ?? "a missing item"), not \(expected[key].map { "\($0)" } ?? "nothing")"
                ))
        }
        for (key, value) in expected where stored[key] == nil {
            report.violations.append(
                InvariantViolation(
                    table: table.name, message: "expiry index misses \(value) for \(items[key].map { table.keyOnly($0) } ?? [:])"))
        }
    }

    /// Checks a vector index's entries against the entries its table's items imply.
    private func checkVectorIndex(_ vectors: VectorStore, items: [StoredKey: Item], report: inout InvariantReport) throws {
        let table = vectors.table
        var stored: [StoredKey: VectorEntry] = [:]
        do {
            stored = try vectors.all()
        } catch {
            report.violations.append(InvariantViolation(table: table.name, message: "vector index \(vectors.index.name) cannot be read: \(error)"))
            return
        }
        report.indexEntries += stored.count
        for (key, item) in items {
            let expected = try? vectors.index.entry(of: item, table: table)
            if stored[key] != expected {
                report.violations.append(
                    InvariantViolation(
                        table: table.name,
                        message: "vector index \(vectors.index.name) entry of \(table.keyOnly(item)) differs from its item's"))
            }
        }
        for key in stored.keys where items[key] == nil {
            report.violations.append(
                InvariantViolation(table: table.name, message: "vector index \(vectors.index.name) has an entry without an item"))
        }
    }
}
