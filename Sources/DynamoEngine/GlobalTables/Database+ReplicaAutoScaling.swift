import DynamoAPI

/// Replica auto scaling settings (DescribeTableReplicaAutoScaling,
/// UpdateTableReplicaAutoScaling): stored and reported; nothing scales here.
extension Database {
    /// The regions a table's settings cover: its group, or just this region.
    func replicaRegions(_ definition: TableDefinition) -> [String] {
        definition.settings?.replication?.regions ?? [region]
    }

    /// DescribeTableReplicaAutoScaling.
    package func describeTableReplicaAutoScaling(_ input: DescribeTableReplicaAutoScalingInput) throws -> DescribeTableReplicaAutoScalingOutput {
        DescribeTableReplicaAutoScalingOutput(tableAutoScalingDescription: try autoScalingDescription(table(named: input.tableName)))
    }

    /// UpdateTableReplicaAutoScaling: merges the given settings into the stored ones.
    package func updateTableReplicaAutoScaling(_ input: UpdateTableReplicaAutoScalingInput) throws -> UpdateTableReplicaAutoScalingOutput {
        let definition = try table(named: input.tableName)
        guard
            input.provisionedWriteCapacityAutoScalingUpdate != nil || input.replicaUpdates?.isEmpty == false
                || input.globalSecondaryIndexUpdates?.isEmpty == false
        else {
            throw EngineMessages.replicaAutoScalingUpdateEmpty
        }
        var changes: [(String, AutoScalingSettingsUpdate)] = []
        if let write = input.provisionedWriteCapacityAutoScalingUpdate { changes.append(("write", write)) }
        for update in input.globalSecondaryIndexUpdates ?? [] {
            let index = try Self.globalIndex(update.indexName, of: definition)
            if let write = update.provisionedWriteCapacityAutoScalingUpdate { changes.append(("index:\(index):write", write)) }
        }
        let regions = replicaRegions(definition)
        for update in input.replicaUpdates ?? [] {
            guard regions.contains(update.regionName) else {
                throw EngineMessages.tableNoReplicaRegion(definitionName: definition.name, regionName: update.regionName)
            }
            if let read = update.replicaProvisionedReadCapacityAutoScalingUpdate {
                changes.append(("read:\(update.regionName)", read))
            }
            for indexUpdate in update.replicaGlobalSecondaryIndexUpdates ?? [] {
                let index = try Self.globalIndex(indexUpdate.indexName, of: definition)
                if let read = indexUpdate.provisionedReadCapacityAutoScalingUpdate {
                    changes.append(("index:\(index):read:\(update.regionName)", read))
                }
            }
        }
        let updated = try updateDefinition(named: definition.name) { definition in
            var settings = definition.controlSettings
            var stored = settings.autoScaling ?? [:]
            for (key, update) in changes {
                let merged = try Self.merge(update, into: Self.storedAutoScaling(stored[key]))
                stored[key] = String(decoding: merged.jsonBytes, as: UTF8.self)
            }
            settings.autoScaling = stored
            definition.controlSettings = settings
        }
        return UpdateTableReplicaAutoScalingOutput(tableAutoScalingDescription: autoScalingDescription(updated))
    }

    private static func globalIndex(_ name: String?, of definition: TableDefinition) throws -> String {
        guard let name, definition.globalIndexes.contains(where: { $0.name == name }) else {
            throw EngineMessages.requestedResourceNotFoundIndex(indexName: name ?? "")
        }
        return name
    }

    static func storedAutoScaling(_ json: String?) -> AutoScalingSettingsDescription? {
        guard let json, let value = try? JSONValue(parsing: json) else { return nil }
        return try? AutoScalingSettingsDescription(json: value)
    }

    private static func merge(
        _ update: AutoScalingSettingsUpdate,
        into current: AutoScalingSettingsDescription?
    ) throws -> AutoScalingSettingsDescription {
        var merged = current ?? AutoScalingSettingsDescription()
        merged.minimumUnits = update.minimumUnits ?? merged.minimumUnits
        merged.maximumUnits = update.maximumUnits ?? merged.maximumUnits
        merged.autoScalingDisabled = update.autoScalingDisabled ?? merged.autoScalingDisabled ?? false
        merged.autoScalingRoleArn = update.autoScalingRoleArn ?? merged.autoScalingRoleArn
        if let minimum = merged.minimumUnits, let maximum = merged.maximumUnits, minimum > maximum {
            throw EngineMessages.minimumUnitsNotGreaterThanMaximumUnits(minimum: minimum, maximum: maximum)
        }
        if let policy = update.scalingPolicyUpdate {
            let configuration = policy.targetTrackingScalingPolicyConfiguration
            merged.scalingPolicies = [
                AutoScalingPolicyDescription(
                    policyName: policy.policyName ?? "DynamoDBWriteCapacityUtilization",
                    targetTrackingScalingPolicyConfiguration: AutoScalingTargetTrackingScalingPolicyConfigurationDescription(
                        disableScaleIn: configuration.disableScaleIn, scaleInCooldown: configuration.scaleInCooldown,
                        scaleOutCooldown: configuration.scaleOutCooldown, targetValue: configuration.targetValue))
            ]
        }
        return merged
    }

    func autoScalingDescription(_ definition: TableDefinition) -> TableAutoScalingDescription {
        let stored = definition.settings?.autoScaling ?? [:]
        let replicas = replicaRegions(definition).map { member in
            ReplicaAutoScalingDescription(
                regionName: member,
                globalSecondaryIndexes: definition.globalIndexes.map { index in
                    ReplicaGlobalSecondaryIndexAutoScalingDescription(
                        indexName: index.name, indexStatus: index.status,
                        provisionedReadCapacityAutoScalingSettings: Self.storedAutoScaling(stored["index:\(index.name):read:\(member)"]),
                        provisionedWriteCapacityAutoScalingSettings: Self.storedAutoScaling(stored["index:\(index.name):write"]))
                },
                replicaProvisionedReadCapacityAutoScalingSettings: Self.storedAutoScaling(stored["read:\(member)"]),
                replicaProvisionedWriteCapacityAutoScalingSettings: Self.storedAutoScaling(stored["write"]),
                replicaStatus: .active)
        }
        return TableAutoScalingDescription(tableName: definition.name, tableStatus: .active, replicas: replicas)
    }
}
