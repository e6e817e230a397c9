import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    /// RestoreTableToPointInTime: a new table holding the source's items as they stood at the
    /// requested second (or the latest restorable time), built in one write transaction from
    /// the source's current rows with the later changes undone, newest first.
    package func restoreTableToPointInTime(_ input: RestoreTableToPointInTimeInput, now: Double) throws -> TableSnapshot {
        // DynamoDB's order: the request's shape (time, then source), the source, its recovery
        // window, and only then whether the target name is free.
        let useLatest = input.useLatestRestorableTime ?? false
        if useLatest, input.restoreDateTime != nil {
            throw EngineMessages.onlyOneRestoreDateTimeUseLatestRestorableTimeSpecified
        }
        if !useLatest, input.restoreDateTime == nil {
            throw EngineMessages.restoreTimeMissing
        }
        guard let reference = input.sourceTableArn ?? input.sourceTableName else {
            throw EngineMessages.eitherSourceTableArnSourceTableNameSpecified
        }
        if input.sourceTableArn != nil, input.sourceTableName != nil {
            throw EngineMessages.onlyOneSourceTableArnSourceTableNameSpecified
        }
        let sourceName = TableReference.name(from: reference)
        guard let source = cachedDefinition(sourceName) else {
            throw EngineMessages.tableNotFound(name: sourceName)
        }
        let time = try Self.restoreTime(input, table: source, now: now)
        if cachedDefinition(input.targetTableName) != nil {
            throw EngineMessages.tableAlreadyExists(input.targetTableName, code: .tableAlreadyExists)
        }
        let overrides = RestoreOverrides(
            billingMode: input.billingModeOverride, globalIndexes: input.globalSecondaryIndexOverride,
            localIndexes: input.localSecondaryIndexOverride, throughput: input.provisionedThroughputOverride,
            onDemand: input.onDemandThroughputOverride, sse: input.sseSpecificationOverride,
            vectorIndexes: input.vectorIndexOverride)
        let origin = RestoreOrigin(
            sourceBackupARN: nil,
            sourceTableARN: ResourceNames.tableARN(region: region, table: source.name),
            restoreDateTime: time)
        let definition = try Self.restoredDefinition(
            from: source, named: input.targetTableName,
            overrides: overrides, origin: origin, now: now)
        return try createRestoredTable(definition) { store, connection in
            guard cachedDefinition(source.name)?.storageID == source.storageID else {
                throw EngineMessages.tableNotFound(name: source.name)
            }
            try copyRows(of: source, at: time, into: store, connection: connection)
        }
    }

    /// The second a restore goes back to, checked against the table's window.
    static func restoreTime(
        _ input: RestoreTableToPointInTimeInput, table: TableDefinition,
        now: Double
    ) throws(DynamoError) -> Double {
        guard let settings = table.pointInTimeRecovery else {
            throw EngineMessages.pointInTimeRecoveryNotEnabled(name: table.name)
        }
        let earliest = settings.earliestRestorable(now: now)
        let latest = settings.latestRestorable(now: now)
        guard let requested = input.restoreDateTime?.secondsSince1970 else { return latest }
        guard requested >= earliest.rounded(.down), requested <= latest else {
            throw EngineMessages.restoreDateTimeBetweenEarliestRestorableDateTimeLatestRestorableDateTime(earliest: earliest, latest: latest)
        }
        return max(requested, earliest)
    }

    /// Writes `source`'s items as they stood at `time` into `store` (inside a transaction).
    func copyRows(
        of source: TableDefinition, at time: Double, into store: ItemStore,
        connection: SQLiteConnection
    ) throws {
        let rows = try connection.statement("SELECT hash, pk, sk, size, item FROM items_\(source.storageID)")
        while try rows.step() {
            let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
            try store.put(key, json: rows.blob(4), size: Int(rows.int64(3)))
        }
        for (key, image) in try imagesBefore(storageID: source.storageID, after: time, connection: connection) {
            if let image {
                let item = try AttributeValue.decodeItem(bytes: image)
                try store.put(key, json: image, size: ItemSize.of(item))
            } else {
                try store.delete(key)
            }
        }
    }
}
