import DynamoAPI

/// DescribeGlobalTableSettings and UpdateGlobalTableSettings (global tables version
/// 2017.11.29): capacity settings of every replica of a legacy global table.
extension Database {
    /// DescribeGlobalTableSettings.
    package func describeGlobalTableSettings(_ input: DescribeGlobalTableSettingsInput) throws -> DescribeGlobalTableSettingsOutput {
        let group = try legacyGroup(input.globalTableName)
        return DescribeGlobalTableSettingsOutput(
            globalTableName: input.globalTableName,
            replicaSettings: try replicaSettings(input.globalTableName, group: group))
    }

    /// UpdateGlobalTableSettings: billing mode and write capacity for every replica (and its
    /// global indexes), read capacity and table class per replica.
    package func updateGlobalTableSettings(_ input: UpdateGlobalTableSettingsInput) throws -> UpdateGlobalTableSettingsOutput {
        let (hub, accessKeyID) = try replicationConnection()
        let group = try legacyGroup(input.globalTableName)
        for update in input.replicaSettingsUpdate ?? [] where !group.regions.contains(update.regionName) {
            throw EngineMessages.replicaNotFoundRegion(regionName: update.regionName)
        }
        let now = clock.now()
        for member in group.regions {
            let database = member == region ? self : try hub.database(accessKeyID: accessKeyID, region: member)
            let replicaUpdate = input.replicaSettingsUpdate?.first { $0.regionName == member }
            _ = try database.updateDefinition(named: input.globalTableName) { definition in
                if let mode = input.globalTableBillingMode, mode != definition.billingMode {
                    definition.billingMode = mode
                    definition.billingModeLastUpdate = now
                    if mode == .payPerRequest {
                        definition.throughput.readCapacityUnits = 0
                        definition.throughput.writeCapacityUnits = 0
                    }
                }
                if let write = input.globalTableProvisionedWriteCapacityUnits {
                    try TableValidation.checkThroughputBounds(read: max(1, definition.throughput.readCapacityUnits), write: write)
                    definition.throughput.writeCapacityUnits = write
                }
                if let read = replicaUpdate?.replicaProvisionedReadCapacityUnits {
                    try TableValidation.checkThroughputBounds(read: read, write: max(1, definition.throughput.writeCapacityUnits))
                    definition.throughput.readCapacityUnits = read
                }
                if let tableClass = replicaUpdate?.replicaTableClass { definition.tableClass = tableClass }
                for indexUpdate in input.globalTableGlobalSecondaryIndexSettingsUpdate ?? [] {
                    guard let position = definition.globalIndexes.firstIndex(where: { $0.name == indexUpdate.indexName }) else {
                        throw EngineMessages.requestedResourceNotFoundIndex(indexName: indexUpdate.indexName)
                    }
                    if let write = indexUpdate.provisionedWriteCapacityUnits {
                        var throughput =
                            definition.globalIndexes[position].throughput
                            ?? ThroughputSettings(readCapacityUnits: 1, writeCapacityUnits: 1)
                        throughput.writeCapacityUnits = write
                        definition.globalIndexes[position].throughput = throughput
                    }
                }
            }
        }
        return UpdateGlobalTableSettingsOutput(
            globalTableName: input.globalTableName,
            replicaSettings: try replicaSettings(input.globalTableName, group: group))
    }

    private func replicaSettings(_ name: String, group: ReplicationGroup) throws -> [ReplicaSettingsDescription] {
        let (hub, accessKeyID) = try replicationConnection()
        return try group.regions.map { member in
            let database = member == region ? self : try hub.database(accessKeyID: accessKeyID, region: member)
            let definition = try database.table(named: name)
            let autoScaling = definition.settings?.autoScaling ?? [:]
            return ReplicaSettingsDescription(
                regionName: member, replicaStatus: .active,
                replicaBillingModeSummary: BillingModeSummary(
                    billingMode: definition.billingMode,
                    lastUpdateToPayPerRequestDateTime: definition.billingMode == .payPerRequest
                        ? definition.billingModeLastUpdate.map { Timestamp(secondsSince1970: $0) } : nil),
                replicaProvisionedReadCapacityUnits: definition.throughput.readCapacityUnits,
                replicaProvisionedReadCapacityAutoScalingSettings: Self.storedAutoScaling(autoScaling["read:\(member)"]),
                replicaProvisionedWriteCapacityUnits: definition.throughput.writeCapacityUnits,
                replicaProvisionedWriteCapacityAutoScalingSettings: Self.storedAutoScaling(autoScaling["write"]),
                replicaGlobalSecondaryIndexSettings: definition.globalIndexes.map { index in
                    ReplicaGlobalSecondaryIndexSettingsDescription(
                        indexName: index.name, indexStatus: index.status,
                        provisionedReadCapacityUnits: index.throughput?.readCapacityUnits,
                        provisionedWriteCapacityUnits: index.throughput?.writeCapacityUnits)
                },
                replicaTableClassSummary: definition.tableClass.map { TableClassSummary(tableClass: $0) })
        }
    }
}
