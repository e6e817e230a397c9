import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What RestoreTableFromBackup and RestoreTableToPointInTime may change about the table they
/// recreate.
struct RestoreOverrides {
    var billingMode: BillingMode?
    var globalIndexes: [GlobalSecondaryIndex]?
    var localIndexes: [LocalSecondaryIndex]?
    var throughput: ProvisionedThroughput?
    var onDemand: OnDemandThroughput?
    var sse: SSESpecification?
    /// `VectorIndexOverride`: the restored table's vector indexes instead of the source's.
    var vectorIndexes: [VectorIndex]?
}

extension Database {
    /// The definition of a table restored from `source` (a backup's or a live table's): the
    /// same keys, indexes (fewer with an index override), billing, throughput and encryption
    /// (as overridden); like DynamoDB, tags, streams, Time to Live, point-in-time recovery and
    /// deletion protection are not restored.
    static func restoredDefinition(
        from source: TableDefinition, named target: String,
        overrides: RestoreOverrides, origin: RestoreOrigin,
        now: Double
    ) throws(DynamoError) -> TableDefinition {
        var table = source
        table.name = target
        table.tableID = UUID().uuidString.lowercased()
        table.creationDateTime = now
        table.storageID = 0
        table.tags = [:]
        table.tagOrder = []
        table.streamViewType = nil
        table.streamLabel = nil
        table.ttlEnabled = false
        table.ttlAttribute = nil
        table.pointInTimeRecovery = nil
        table.deletionProtectionEnabled = false
        table.restoreSummary = origin

        if let local = overrides.localIndexes {
            let names = Set(local.map(\.indexName))
            try checkIndexNames(names, existing: source.localIndexes)
            table.localIndexes = source.localIndexes.filter { names.contains($0.name) }
        }
        if let global = overrides.globalIndexes {
            let names = Set(global.map(\.indexName))
            try checkIndexNames(names, existing: source.globalIndexes)
            table.globalIndexes = source.globalIndexes.filter { names.contains($0.name) }
        }

        let mode = overrides.billingMode ?? source.billingMode
        let sourceThroughput =
            source.billingMode == .provisioned
            ? (read: source.throughput.readCapacityUnits, write: source.throughput.writeCapacityUnits) : nil
        let throughput = overrides.throughput.map { (read: $0.readCapacityUnits, write: $0.writeCapacityUnits) }
        try TableValidation.checkBilling(
            mode: mode,
            throughput: mode == .payPerRequest
                ? throughput
                : throughput ?? sourceThroughput)
        table.billingMode = mode
        if mode != source.billingMode { table.billingModeLastUpdate = now }
        if mode == .payPerRequest {
            table.throughput = ThroughputSettings(readCapacityUnits: 0, writeCapacityUnits: 0)
            for position in table.globalIndexes.indices { table.globalIndexes[position].throughput = nil }
        } else if let chosen = throughput ?? sourceThroughput {
            table.throughput = ThroughputSettings(readCapacityUnits: chosen.read, writeCapacityUnits: chosen.write)
            for position in table.globalIndexes.indices {
                let name = table.globalIndexes[position].name
                let given = overrides.globalIndexes?.first { $0.indexName == name }?.provisionedThroughput
                let kept = table.globalIndexes[position].throughput.flatMap { $0.readCapacityUnits > 0 ? $0 : nil }
                table.globalIndexes[position].throughput =
                    given.map {
                        ThroughputSettings(readCapacityUnits: $0.readCapacityUnits, writeCapacityUnits: $0.writeCapacityUnits)
                    } ?? kept ?? table.throughput
            }
        }
        for position in table.globalIndexes.indices { table.globalIndexes[position].status = .active }
        table.vectorIndexes = table.vectorIndexes.map(\.filled)
        if let vectorIndexes = overrides.vectorIndexes {
            table.vectorIndexes = try VectorIndexValidation.created(
                vectorIndexes, billingMode: mode, definitions: table.attributeDefinitions,
                otherIndexNames: Set(table.indexes.map(\.name)))
        } else if !table.vectorIndexes.isEmpty, mode != .payPerRequest {
            throw EngineMessages.vectorIndexesOnlyOnDemand
        }
        if let onDemand = overrides.onDemand {
            try TableValidation.checkOnDemand(onDemand, clears: false, restore: true)
            table.onDemandMaxRead = onDemand.maxReadRequestUnits
            table.onDemandMaxWrite = onDemand.maxWriteRequestUnits
        }
        if let sse = overrides.sse {
            table.sseEnabled = sse.enabled ?? false
            table.sseType = table.sseEnabled ? sse.sseType ?? .kms : nil
            table.kmsMasterKeyID = table.sseEnabled ? sse.kmsMasterKeyId : nil
        }
        return table
    }

    private static func checkIndexNames(_ names: Set<String>, existing: [IndexDefinition]) throws(DynamoError) {
        let known = Set(existing.map(\.name))
        if let unknown = names.subtracting(known).sorted().first {
            throw EngineMessages.indexRestoreDoesNotExist(unknown: unknown)
        }
    }

    /// Creates the restored table and fills it in one write transaction: `fill` writes the
    /// items through the table's store (which keeps its indexes), then the statistics are
    /// counted.
    ///
    /// - Throws: `TableAlreadyExistsException` if a table of that name exists.
    func createRestoredTable(
        _ definition: TableDefinition,
        fill: (ItemStore, SQLiteConnection) throws -> Void
    ) throws -> TableSnapshot {
        let stored = try write { state -> TableDefinition in
            if cachedDefinition(definition.name) != nil {
                throw EngineMessages.tableAlreadyExists(definition.name, code: .tableAlreadyExists)
            }
            var stored = definition
            stored.storageID = try StorageIDs.allocate(state.connection)
            try state.connection.execute(ItemStore.createSQL(storageID: stored.storageID))
            for index in stored.indexes {
                try state.connection.execute(IndexStore.createSQL(table: stored, index: index))
            }
            for index in stored.vectorIndexes {
                try VectorStore(table: stored, index: index, connection: state.connection).create()
            }
            try saveDefinition(stored, connection: state.connection, isNew: true)
            var store = ItemStore(table: stored, connection: state.connection)
            store.leavesOutInvalidVectors = true
            try fill(store, state.connection)
            // The fill wrote through a store that keeps no statistics: count the new rows once.
            state.statistics[stored.name] = try LiveStatistics.count(stored, connection: state.connection)
            state.cacheAfterCommit(stored, named: stored.name)
            return stored
        }
        let statistics = try statistics(of: stored)
        return TableSnapshot(
            definition: stored, status: .creating, itemCount: statistics.itemCount,
            sizeBytes: statistics.sizeBytes, region: region)
    }

    /// RestoreTableFromBackup: a new table with the backup's definition (as overridden) and items.
    package func restoreTableFromBackup(_ input: RestoreTableFromBackupInput, now: Double) throws -> TableSnapshot {
        let record = try backup(arn: input.backupArn)
        let overrides = RestoreOverrides(
            billingMode: input.billingModeOverride, globalIndexes: input.globalSecondaryIndexOverride,
            localIndexes: input.localSecondaryIndexOverride, throughput: input.provisionedThroughputOverride,
            onDemand: input.onDemandThroughputOverride, sse: input.sseSpecificationOverride,
            vectorIndexes: input.vectorIndexOverride)
        let origin = RestoreOrigin(sourceBackupARN: record.arn, sourceTableARN: record.tableARN, restoreDateTime: now)
        let definition = try Self.restoredDefinition(
            from: record.table, named: input.targetTableName,
            overrides: overrides, origin: origin, now: now)
        return try createRestoredTable(definition) { store, connection in
            let rows = try connection.statement("SELECT hash, pk, sk, size, item FROM \(record.storageName)")
            while try rows.step() {
                let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
                try store.put(key, json: rows.blob(4), size: Int(rows.int64(3)))
            }
        }
    }
}
