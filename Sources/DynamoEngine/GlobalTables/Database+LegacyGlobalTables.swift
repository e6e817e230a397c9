import DynamoAPI

/// Global tables version 2017.11.29: CreateGlobalTable, UpdateGlobalTable, DescribeGlobalTable,
/// ListGlobalTables. The tables must already exist in every region (same name, same keys,
/// streams with new and old images, empty when they join); the group is recorded on each of
/// them and replication runs as for version 2019.11.21.
extension Database {
    static func globalTableARN(_ name: String) -> String {
        "arn:aws:dynamodb::\(ResourceNames.accountID):global-table/\(name)"
    }

    /// The legacy group of a table in this namespace, or `GlobalTableNotFoundException`.
    func legacyGroup(_ name: String) throws -> ReplicationGroup {
        guard let group = cachedDefinition(name)?.settings?.replication, group.version == GlobalTableVersion.legacy else {
            throw EngineMessages.globalTableNotFound
        }
        return group
    }

    /// A table that may join a legacy group: it exists in `region`, has the same keys as
    /// `model`, a NEW_AND_OLD_IMAGES stream, no items and no group yet.
    private func joiningTable(
        _ name: String, in region: String, like model: TableDefinition?,
        hub: ReplicationHub, accessKeyID: String?
    ) throws -> (Database, TableDefinition) {
        let database = try hub.database(accessKeyID: accessKeyID, region: region)
        guard let definition = database.cachedDefinition(name) else {
            throw EngineMessages.tableNotFoundRegion(name: name, region: region)
        }
        if let model, model.keyAttributes != definition.keyAttributes {
            throw EngineMessages.replicaKeySchemaDiffers(name: name, region: region)
        }
        guard definition.streamViewType == .newAndOldImages else {
            throw EngineMessages.replicaNeedsNewAndOldImagesStream(name: name, region: region)
        }
        if try database.statistics(of: definition).itemCount > 0 {
            throw EngineMessages.replicaNotEmpty(name: name, region: region)
        }
        return (database, definition)
    }

    /// CreateGlobalTable: forms a replication group of the same-named tables in the regions given.
    package func createGlobalTable(_ input: CreateGlobalTableInput) throws -> CreateGlobalTableOutput {
        let (hub, accessKeyID) = try replicationConnection()
        var regions: [String] = []
        for replica in input.replicationGroup {
            if let name = replica.regionName, !regions.contains(name) { regions.append(name) }
        }
        var model: TableDefinition?
        for member in regions {
            let database = try hub.database(accessKeyID: accessKeyID, region: member)
            if database.cachedDefinition(input.globalTableName)?.settings?.replication != nil {
                throw EngineMessages.globalTableNameAlreadyExists
            }
            model = try joiningTable(input.globalTableName, in: member, like: model, hub: hub, accessKeyID: accessKeyID).1
        }
        let now = clock.now()
        let group = ReplicationGroup(version: GlobalTableVersion.legacy, regions: regions, createdAt: now)
        try setGroup(group, table: input.globalTableName, regions: regions, hub: hub, accessKeyID: accessKeyID, now: now)
        return CreateGlobalTableOutput(globalTableDescription: Self.describe(input.globalTableName, group: group))
    }

    /// UpdateGlobalTable: adds regions (their tables must exist and be empty) or removes them.
    package func updateGlobalTable(_ input: UpdateGlobalTableInput) throws -> UpdateGlobalTableOutput {
        let (hub, accessKeyID) = try replicationConnection()
        var group = try legacyGroup(input.globalTableName)
        let before = group.regions
        for update in input.replicaUpdates {
            if let create = update.create {
                if group.regions.contains(create.regionName) {
                    throw EngineMessages.replicaAlreadyExistsRegion(regionName: create.regionName)
                }
                let model = try table(named: input.globalTableName)
                _ = try joiningTable(input.globalTableName, in: create.regionName, like: model, hub: hub, accessKeyID: accessKeyID)
                group.regions.append(create.regionName)
            } else if let delete = update.delete {
                guard group.regions.contains(delete.regionName) else {
                    throw EngineMessages.replicaNotFoundRegion(regionName: delete.regionName)
                }
                group.regions.removeAll { $0 == delete.regionName }
            } else {
                throw EngineMessages.replicaUpdateWithoutCreateOrDelete
            }
        }
        let now = clock.now()
        let removed = before.filter { !group.regions.contains($0) }
        try setGroup(nil, table: input.globalTableName, regions: removed, hub: hub, accessKeyID: accessKeyID, now: now)
        try setGroup(
            group.regions.isEmpty ? nil : group, table: input.globalTableName, regions: group.regions,
            hub: hub, accessKeyID: accessKeyID, now: now)
        return UpdateGlobalTableOutput(globalTableDescription: Self.describe(input.globalTableName, group: group))
    }

    /// DescribeGlobalTable.
    package func describeGlobalTable(_ input: DescribeGlobalTableInput) throws -> DescribeGlobalTableOutput {
        DescribeGlobalTableOutput(
            globalTableDescription: Self.describe(
                input.globalTableName,
                group: try legacyGroup(input.globalTableName)))
    }

    /// ListGlobalTables: this namespace's legacy global tables by name, optionally only those
    /// with a replica in `RegionName`, paged by `Limit` (default 100).
    package func listGlobalTables(_ input: ListGlobalTablesInput) throws -> ListGlobalTablesOutput {
        var names = tables.values.filter { definition in
            guard let group = definition.settings?.replication, group.version == GlobalTableVersion.legacy else { return false }
            return input.regionName.map(group.regions.contains) ?? true
        }.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let start = input.exclusiveStartGlobalTableName {
            names = names.filter { start.utf8.lexicographicallyPrecedes($0.utf8) }
        }
        let limit = input.limit ?? 100
        let page = Array(names.prefix(limit))
        let globalTables = try page.map { name in
            GlobalTable(
                globalTableName: name,
                replicationGroup: try legacyGroup(name).regions.map { Replica(regionName: $0) })
        }
        return ListGlobalTablesOutput(
            globalTables: globalTables,
            lastEvaluatedGlobalTableName: names.count > limit ? page.last : nil)
    }

    static func describe(_ name: String, group: ReplicationGroup) -> GlobalTableDescription {
        GlobalTableDescription(
            replicationGroup: group.regions.map { ReplicaDescription(regionName: $0, replicaStatus: .active) },
            globalTableArn: globalTableARN(name), creationDateTime: Timestamp(secondsSince1970: group.createdAt),
            globalTableStatus: .active, globalTableName: name)
    }
}
