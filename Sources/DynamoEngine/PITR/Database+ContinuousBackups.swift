import DynamoAPI

extension Database {
    /// UpdateContinuousBackups: turns point-in-time recovery on (from now) or off (dropping the
    /// change log), or changes the recovery period (trimming the log to it).
    package func updateContinuousBackups(
        _ input: UpdateContinuousBackupsInput,
        now: Double
    ) throws -> UpdateContinuousBackupsOutput {
        let specification = input.pointInTimeRecoverySpecification
        if !specification.pointInTimeRecoveryEnabled, specification.recoveryPeriodInDays != nil {
            throw EngineMessages.recoveryPeriodWhenDisabling
        }
        let name = TableReference.name(from: input.tableName)
        guard cachedDefinition(name) != nil else { throw Self.continuousBackupsTableNotFound(name) }
        let definition = try updateDefinition(named: name) { definition, connection in
            if specification.pointInTimeRecoveryEnabled {
                let period =
                    specification.recoveryPeriodInDays
                    ?? definition.pointInTimeRecovery?.recoveryPeriodInDays ?? PITRSettings.defaultRecoveryPeriodInDays
                let settings = PITRSettings(
                    enabledAt: definition.pointInTimeRecovery?.enabledAt ?? now,
                    recoveryPeriodInDays: period)
                definition.pointInTimeRecovery = settings
                try trimPointInTimeLog(
                    storageID: definition.storageID, before: settings.earliestRestorable(now: now),
                    connection: connection)
            } else {
                definition.pointInTimeRecovery = nil
                try forgetPointInTimeLog(storageID: definition.storageID, connection: connection)
            }
        }
        return UpdateContinuousBackupsOutput(continuousBackupsDescription: Self.continuousBackups(of: definition, now: now))
    }

    /// DescribeContinuousBackups.
    package func describeContinuousBackups(
        _ input: DescribeContinuousBackupsInput,
        now: Double
    ) throws -> DescribeContinuousBackupsOutput {
        let name = TableReference.name(from: input.tableName)
        guard let definition = cachedDefinition(name) else { throw Self.continuousBackupsTableNotFound(name) }
        return DescribeContinuousBackupsOutput(continuousBackupsDescription: Self.continuousBackups(of: definition, now: now))
    }

    /// Continuous backups are always on in DynamoDB; point-in-time recovery is what a table
    /// turns on, with its window.
    static func continuousBackups(of table: TableDefinition, now: Double) -> ContinuousBackupsDescription {
        guard let settings = table.pointInTimeRecovery else {
            return ContinuousBackupsDescription(
                continuousBackupsStatus: .enabled,
                pointInTimeRecoveryDescription: PointInTimeRecoveryDescription(pointInTimeRecoveryStatus: .disabled))
        }
        return ContinuousBackupsDescription(
            continuousBackupsStatus: .enabled,
            pointInTimeRecoveryDescription: PointInTimeRecoveryDescription(
                pointInTimeRecoveryStatus: .enabled, recoveryPeriodInDays: settings.recoveryPeriodInDays,
                earliestRestorableDateTime: Timestamp(secondsSince1970: settings.earliestRestorable(now: now)),
                latestRestorableDateTime: Timestamp(secondsSince1970: settings.latestRestorable(now: now))))
    }

    static func continuousBackupsTableNotFound(_ name: String) -> DynamoError {
        EngineMessages.tableNotFound(name: name)
    }
}
