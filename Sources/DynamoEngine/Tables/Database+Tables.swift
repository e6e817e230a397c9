import DynamoAPI
import Synchronization

/// A table as DescribeTable reports it: its definition, status and live statistics.
package struct TableSnapshot: Sendable {
    package var definition: TableDefinition
    /// When the description is made (the server clock): a warm throughput changed less than
    /// `Transition.seconds` before it shows `UPDATING`. Infinity (the default) shows every
    /// change settled.
    package var describedAt = Double.infinity
    /// `CREATING`, `ACTIVE`, `UPDATING` or `DELETING`.
    package var status: TableStatus
    package var itemCount: Int64
    package var sizeBytes: Int64
    package var region: String
    /// Entries and bytes per secondary index name.
    package var indexStatistics: [String: (itemCount: Int64, sizeBytes: Int64)] = [:]
    /// Whether a CREATING index is reported as backfilling (`Backfilling: true`): it is, except
    /// in the UpdateTable response that created it (DynamoDB allocates resources first).
    package var backfilling = true
    /// Index statuses that differ from the catalog's for this report (an UpdateTable response
    /// shows an index whose throughput it changed as UPDATING).
    package var indexStatus: [String: IndexStatus] = [:]
    /// Replica statuses that differ from ACTIVE for this report (an UpdateTable response shows
    /// a replica it adds as CREATING, one it removes as DELETING), by region.
    package var replicaStatus: [String: ReplicaStatus] = [:]
    /// Entries and bytes per vector index name.
    package var vectorIndexStatistics: [String: (itemCount: Int64, sizeBytes: Int64)] = [:]
    /// Vector index statuses other than ACTIVE for this report (CREATING while a new index is
    /// held, or in the UpdateTable response that created it).
    package var vectorIndexStatus: [String: IndexStatus] = [:]
    /// Vector indexes deleted moments ago, still described as DELETING.
    package var deletedVectorIndexes: [VectorIndexDefinition] = []

    package init(definition: TableDefinition, status: TableStatus, itemCount: Int64, sizeBytes: Int64, region: String) {
        self.definition = definition
        self.status = status
        self.itemCount = itemCount
        self.sizeBytes = sizeBytes
        self.region = region
    }
}

extension Database {
    /// Whether ``describeTable(named:)`` answers `name` from memory, with no SQL and no wait
    /// for the writer: the table's statistics are known, or there is no such table (answered at
    /// once). `false` the first time after the database was opened, until the rows are counted.
    package func describesFromMemory(_ name: String) -> Bool {
        publishedTable(TableReference.name(from: name)).map { $0.statistics != nil } ?? true
    }

    /// Describes one table: its definition and the live statistics of the table and of each
    /// index, all as of the same commit (``PublishedTable``), read from memory: no SQL, and no
    /// wait for the writer, once the table's statistics are known.
    ///
    /// The first time after the database is opened, the table's rows are counted on the writer
    /// (``countedTable(_:)``, O(rows)): blocking work, which ``describesFromMemory(_:)`` tells
    /// apart beforehand.
    package func describeTable(named name: String) throws -> TableSnapshot {
        let now = clock.now()
        let tableName = TableReference.name(from: name)
        guard var published = publishedTable(tableName) else {
            // A table deleted moments ago, still shown DELETING under -delayTransientStatuses.
            if let deleted = transientStatuses.deletedTable(named: tableName, now: now) { return deleted }
            throw DynamoError.tableNotFound()
        }
        if published.statistics == nil {
            // Counted under the writer's lock, with the definition of the same moment.
            guard let counted = try countedTable(tableName) else { throw DynamoError.tableNotFound() }
            published = counted
        }
        let definition = published.definition
        let statistics = published.statistics ?? .empty
        // DynamoDB reports the table UPDATING while an index is being deleted; while one is
        // backfilling the table itself is ACTIVE.
        let deleting = definition.globalIndexes.contains { $0.status == .deleting }
        var snapshot = TableSnapshot(
            definition: definition, status: deleting ? .updating : .active,
            itemCount: statistics.table.itemCount, sizeBytes: statistics.table.sizeBytes, region: region)
        for index in definition.indexes {
            guard let counted = statistics.indexes[index.storageNumber] else { continue }
            snapshot.indexStatistics[index.name] = (counted.itemCount, counted.sizeBytes)
        }
        if !definition.vectorIndexes.isEmpty {
            for index in definition.vectorIndexes {
                guard let counted = statistics.vectorIndexes[index.storageNumber] else { continue }
                snapshot.vectorIndexStatistics[index.name] = (counted.itemCount, counted.sizeBytes)
            }
            for index in definition.vectorIndexes where index.isBackfilling(at: now) {
                snapshot.vectorIndexStatus[index.name] = .creating
            }
        }
        snapshot.describedAt = now
        transientStatuses.apply(to: &snapshot, now: now)
        return snapshot
    }

    /// Table names in ascending order, after `exclusiveStart`, at most `limit` (DynamoDB's
    /// default and maximum page is 100), and the last name returned when more remain.
    package func listTables(exclusiveStart: String?, limit: Int?) -> (names: [String], lastEvaluated: String?) {
        let pageSize = limit ?? 100
        let names = catalogSnapshot.withLock { Array($0.keys) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .filter { name in exclusiveStart.map { Array(name.utf8).lexicographicallyPrecedes(Array($0.utf8)) == false && name != $0 } ?? true }
        let page = Array(names.prefix(pageSize))
        return (page, names.count > pageSize ? page.last : nil)
    }

    /// Deletes a table and all its items; refused while deletion protection is on.
    package func deleteTable(named reference: String) throws -> TableSnapshot {
        try deleteTable(try describeTable(named: reference))
    }

    /// Deletes the table `snapshot` describes, as the request saw it before it waited for the
    /// writer: what is dropped is the table as it is when the writer runs, which may have
    /// changed since (an index added or removed meanwhile).
    func deleteTable(_ snapshot: TableSnapshot) throws -> TableSnapshot {
        let name = snapshot.definition.name
        let definition = snapshot.definition
        if definition.deletionProtectionEnabled {
            throw EngineMessages.resourceCannotDeletedAsIt
        }
        if definition.globalIndexes.contains(where: { $0.status != .active }) {
            throw EngineMessages.deleteTableWhileIndexesChange
        }
        try leaveReplicationGroup(definition)
        let deletedDefinition = try write { state in
            // The definition as it is now, not as the snapshot above saw it: an UpdateTable
            // that committed in between may have added an index, whose table must go too.
            guard let current = cachedDefinition(name), current.storageID == definition.storageID else {
                throw DynamoError.tableNotFound()
            }
            if current.deletionProtectionEnabled { throw EngineMessages.resourceCannotDeletedAsIt }
            if current.globalIndexes.contains(where: { $0.status != .active }) {
                throw EngineMessages.deleteTableWhileIndexesChange
            }
            try state.connection.statement("DELETE FROM catalog WHERE name = ?").bind(.text(name)).run()
            if let label = current.streamLabel {
                // The stream stays readable for 24 hours, as DynamoDB's does.
                try StreamCatalog.endStream(table: name, label: label, now: clock.now(), connection: state.connection)
            }
            state.connection.clearStatementCache()
            try state.connection.dropTable(named: ItemStore.name(storageID: current.storageID))
            try state.connection.dropTable(named: ExpiryIndex.name(storageID: current.storageID))
            try forgetPointInTimeLog(storageID: current.storageID, connection: state.connection)
            for index in current.indexes {
                try state.connection.dropTable(named: IndexStore.name(table: current, index: index))
            }
            for index in current.vectorIndexes {
                try VectorStore(table: current, index: index, connection: state.connection).drop()
            }
            state.cacheAfterCommit(nil, named: name)
            return current
        }
        invalidateStatements()
        let deleted = TableSnapshot(
            definition: deletedDefinition, status: .deleting, itemCount: snapshot.itemCount,
            sizeBytes: snapshot.sizeBytes, region: region)
        transientStatuses.holdDeleted(deleted, now: clock.now())
        return deleted
    }

    /// Replaces a table's definition in the catalog (UpdateTable, tagging, TTL).
    package func updateDefinition(
        named reference: String,
        _ change: (inout TableDefinition) throws -> Void
    ) throws -> TableDefinition {
        try updateDefinition(named: reference) { definition, _ in try change(&definition) }
    }

    /// Replaces a table's definition in the catalog, with access to the write transaction.
    ///
    /// - Parameter change: edits the definition; `connection` is the write transaction's, for
    ///   storage that must change with the definition (a new index's SQLite table).
    package func updateDefinition(
        named reference: String,
        _ change: (inout TableDefinition, _ connection: SQLiteConnection) throws -> Void
    ) throws -> TableDefinition {
        let name = TableReference.name(from: reference)
        return try write { state in
            guard var definition = cachedDefinition(name) else { throw DynamoError.tableNotFound() }
            try change(&definition, state.connection)
            try saveDefinition(definition, connection: state.connection, isNew: false)
            state.cacheAfterCommit(definition, named: name)
            return definition
        }
    }
}
