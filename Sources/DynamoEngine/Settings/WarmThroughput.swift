import DynamoAPI

extension TableDefinition {
    /// The warm throughput every new table starts with (DynamoDB's published baseline for a new
    /// table: 12,000 read and 4,000 write units per second).
    package static let defaultWarmRead = 12_000
    package static let defaultWarmWrite = 4_000

    /// Records a CreateTable or UpdateTable `WarmThroughput`. Warm throughput only grows: on
    /// UpdateTable a value below the table's current warm throughput (as DescribeTable reports
    /// it, the baseline included) is refused.
    mutating func applyWarmThroughput(_ warm: WarmThroughput?, updating: Bool) throws(DynamoError) {
        guard let warm else { return }
        guard warm.readUnitsPerSecond != nil || warm.writeUnitsPerSecond != nil else {
            throw EngineMessages.warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond
        }
        let described = warmThroughput
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
        controlSettings = settings
    }

    /// The table's warm throughput as DescribeTable reports it.
    package var warmThroughput: TableWarmThroughputDescription {
        let settings = settings
        return TableWarmThroughputDescription(
            readUnitsPerSecond: max(settings?.warmRead ?? 0, Self.defaultWarmRead, throughput.readCapacityUnits),
            writeUnitsPerSecond: max(settings?.warmWrite ?? 0, Self.defaultWarmWrite, throughput.writeCapacityUnits),
            status: .active)
    }
}
