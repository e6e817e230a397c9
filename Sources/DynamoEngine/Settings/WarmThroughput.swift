import DynamoAPI

extension TableDefinition {
    /// The warm throughput every new table starts with (DynamoDB's published baseline for a new
    /// table: 12,000 read and 4,000 write units per second).
    package static let defaultWarmRead = 12_000
    package static let defaultWarmWrite = 4_000

    /// Records a CreateTable or UpdateTable `WarmThroughput` asked for at `now`. Warm
    /// throughput only grows: on UpdateTable a value below the table's current warm throughput
    /// (as DescribeTable reports it, the baseline included) is refused.
    mutating func applyWarmThroughput(_ warm: WarmThroughput?, updating: Bool, now: Double) throws(DynamoError) {
        guard let warm else { return }
        guard warm.readUnitsPerSecond != nil || warm.writeUnitsPerSecond != nil else {
            throw EngineMessages.warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond
        }
        let described = warmThroughput(now: .infinity)
        let current = updating ? (read: described.readUnitsPerSecond ?? 0, write: described.writeUnitsPerSecond ?? 0) : (read: 0, write: 0)
        var settings = controlSettings
        if let read = warm.readUnitsPerSecond {
            if read < current.read {
                throw EngineMessages.requestedReadUnitsPerSecondWarmThroughputTableLower
            }
            settings.warmRead = read
        }
        if let write = warm.writeUnitsPerSecond {
            if write < current.write {
                throw EngineMessages.requestedWriteUnitsPerSecondWarmThroughputTableLower
            }
            settings.warmWrite = write
        }
        settings.warmChangedAt = now
        controlSettings = settings
    }

    /// The warm throughput of a table or global index as DynamoDB's recorded descriptions show
    /// it (2025-2026): what was asked for, else what its capacity mode gives: a provisioned
    /// table or index its provisioned capacity (5/5 reports 5/5), an on-demand one the baseline
    /// of a new table (12,000 read and 4,000 write units). `UPDATING` for `Transition.seconds`
    /// of the server clock after a change, then `ACTIVE`.
    private func warm(
        read: Int?, write: Int?, changedAt: Double?, provisioned: ThroughputSettings?, now: Double
    ) -> (read: Int, write: Int, updating: Bool) {
        let baseline =
            billingMode == .provisioned
            ? (read: provisioned?.readCapacityUnits ?? 0, write: provisioned?.writeCapacityUnits ?? 0)
            : (read: Self.defaultWarmRead, write: Self.defaultWarmWrite)
        let updating = changedAt.map { !Transition.settled(since: $0, now: now) } ?? false
        return (max(read ?? 0, baseline.read), max(write ?? 0, baseline.write), updating)
    }

    /// The table's warm throughput as DescribeTable reports it at `now`.
    package func warmThroughput(now: Double) -> TableWarmThroughputDescription {
        let settings = settings
        let warm = warm(
            read: settings?.warmRead, write: settings?.warmWrite, changedAt: settings?.warmChangedAt,
            provisioned: throughput, now: now)
        return TableWarmThroughputDescription(
            readUnitsPerSecond: warm.read, writeUnitsPerSecond: warm.write, status: warm.updating ? .updating : .active)
    }

    /// A global index's own warm throughput as DescribeTable reports it at `now`.
    package func warmThroughput(of index: IndexDefinition, now: Double) -> GlobalSecondaryIndexWarmThroughputDescription {
        let warm = warm(
            read: index.warmRead, write: index.warmWrite, changedAt: index.warmChangedAt,
            provisioned: index.throughput, now: now)
        return GlobalSecondaryIndexWarmThroughputDescription(
            readUnitsPerSecond: warm.read, writeUnitsPerSecond: warm.write, status: warm.updating ? .updating : .active)
    }
}

extension IndexDefinition {
    /// Records a global index's `WarmThroughput` asked for at `now` (CreateTable, or UpdateTable
    /// creating or updating the index).
    mutating func applyWarmThroughput(_ warm: WarmThroughput?, now: Double) throws(DynamoError) {
        guard let warm else { return }
        guard warm.readUnitsPerSecond != nil || warm.writeUnitsPerSecond != nil else {
            throw EngineMessages.warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond
        }
        if let read = warm.readUnitsPerSecond { warmRead = read }
        if let write = warm.writeUnitsPerSecond { warmWrite = write }
        warmChangedAt = now
    }
}
