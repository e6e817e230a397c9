import DynamoAPI

/// The request-level rules of UpdateTable `ReplicaUpdates`, checked before anything changes,
/// with the service's messages: one Create or Delete per call, no mixing of action types, an
/// Update that names something to change, never the table's own region, Update and Delete only
/// for regions of the group, Create only for regions outside it.
enum ReplicaUpdateRules {
    static func alreadyExisted(_ table: String) -> DynamoError {
        EngineMessages.failedCreateNewReplicaTable(table: table)
    }

    /// The updates to apply (identical Creates folded into one), or DynamoDB's error.
    static func check(
        _ updates: [ReplicationGroupUpdate], table: TableDefinition,
        localRegion: String
    ) throws(DynamoError) -> [ReplicationGroupUpdate] {
        var unique: [ReplicationGroupUpdate] = []
        for update in updates where !unique.contains(update) { unique.append(update) }
        var kinds = Set<String>()
        var createsAndDeletes = 0
        for update in unique {
            let actions = [update.create != nil, update.update != nil, update.delete != nil].filter { $0 }.count
            if actions == 0 {
                throw EngineMessages.emptyReplicaUpdateAction
            }
            if actions > 1 {
                throw EngineMessages.mixedReplicaActions
            }
            if update.create != nil { kinds.insert("create"); createsAndDeletes += 1 }
            if update.delete != nil { kinds.insert("delete"); createsAndDeletes += 1 }
            if update.update != nil { kinds.insert("update") }
        }
        if kinds.count > 1 {
            throw EngineMessages.mixedReplicaActions
        }
        if createsAndDeletes > 1 {
            throw EngineMessages.multipleReplicaCreateOrDelete
        }
        let members = table.settings?.replication?.regions ?? []
        var missing: [String] = []
        for update in unique {
            if let create = update.create {
                if create.regionName == localRegion { throw localRegionError(update: false) }
                if members.contains(create.regionName) { throw alreadyExisted(table.name) }
            } else if let change = update.update {
                if change.regionName == localRegion { throw localRegionError(update: true) }
                if change.kmsMasterKeyId == nil, change.provisionedThroughputOverride == nil,
                    change.onDemandThroughputOverride == nil, change.globalSecondaryIndexes == nil,
                    change.tableClassOverride == nil
                {
                    throw EngineMessages.emptyReplicaUpdateAction
                }
                if !members.contains(change.regionName) { missing.append(change.regionName) }
            } else if let delete = update.delete {
                if delete.regionName == localRegion { throw localRegionError(update: false) }
                if !members.contains(delete.regionName) { missing.append(delete.regionName) }
            }
        }
        if !missing.isEmpty {
            throw EngineMessages.updateGlobalTableOperationFailed(missing: missing)
        }
        return unique
    }

    private static func localRegionError(update: Bool) -> DynamoError {
        EngineMessages.localRegionReplicaUpdate(update: update)
    }
}
