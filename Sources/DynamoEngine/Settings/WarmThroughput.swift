import DynamoAPI

extension TableDefinition {
    /// The warm throughput every new table starts with (DynamoDB's published baseline for a new
    /// table: 12,000 read and 4,000 write units per second).
    package static let defaultWarmRead = 12_000
    package static let defaultWarmWrite = 4_000

    /// Records a CreateTable or UpdateTable `WarmThroughput`. Warm throughput only grows: a
    /// value below one asked for before is refused.
    mutating func applyWarmThroughput(_ warm: WarmThroughput?) throws(DynamoError) {
        guard let warm else { return }
        guard warm.readUnitsPerSecond != nil || warm.writeUnitsPerSecond != nil else {
            throw EngineMessages.warmThroughputContainReadUnitsPerSecondWriteUnitsPerSecond
        }
        var settings = controlSettings
        if let read = warm.readUnitsPerSecond {
            if read < (settings.warmRead ?? 0) {
                throw EngineMessages.requestedReadUnitsPerSecondWarmThroughputTableLower
            }
            settings.warmRead = read
        }
        if let write = warm.writeUnitsPerSecond {
            if write < (settings.warmWrite ?? 0) {
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
