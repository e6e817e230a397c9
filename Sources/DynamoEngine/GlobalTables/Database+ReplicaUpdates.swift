import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The version names of global tables.
package enum GlobalTableVersion {
    /// Replicas managed through UpdateTable `ReplicaUpdates` (the current version).
    package static let current = "2019.11.21"
    /// Replication groups managed through CreateGlobalTable / UpdateGlobalTable (legacy).
    package static let legacy = "2017.11.29"
}

/// What UpdateTable's `ReplicaUpdates` changed: the table as it is now and the statuses its
/// answer shows.
package struct ReplicaUpdateResult: Sendable {
    package var definition: TableDefinition
    package var statuses: [String: ReplicaStatus]
}

extension Database {
    /// The hub and access key id of this namespace, or the error a server without separate
    /// regional namespaces answers.
    func replicationConnection() throws -> (hub: ReplicationHub, accessKeyID: String?) {
        guard let connection = replication.connection else {
            throw EngineMessages.globalTablesNeedRegionNamespaces
        }
        return connection
    }

    /// UpdateTable `ReplicaUpdates` (global tables version 2019.11.21): creates a replica (a real
    /// table in that region's namespace, with the same keys, indexes and items, replicated both
    /// ways from then on), updates one's table class, or deletes one (its table goes away).
    package func updateReplicas(
        _ updates: [ReplicationGroupUpdate], table reference: String,
        now: Double
    ) throws -> ReplicaUpdateResult {
        let (hub, accessKeyID) = try replicationConnection()
        var definition = try table(named: reference)
        if definition.settings?.replication?.version == GlobalTableVersion.legacy {
            throw EngineMessages.legacyGlobalTableReplicaUpdates(definitionName: definition.name)
        }
        let updates = try ReplicaUpdateRules.check(updates, table: definition, localRegion: region)
        var statuses: [String: ReplicaStatus] = [:]
        for update in updates {
            if let create = update.create {
                try Self.checkReadOverride(create.provisionedThroughputOverride, of: definition)
                definition = try createReplica(
                    of: definition, in: create.regionName, tableClass: create.tableClassOverride,
                    hub: hub, accessKeyID: accessKeyID, now: now)
                definition = try overrideReplica(
                    definition, in: create.regionName, read: create.provisionedThroughputOverride,
                    tableClass: nil, hub: hub, accessKeyID: accessKeyID)
                statuses[create.regionName] = .creating
            } else if let change = update.update {
                try Self.checkReadOverride(change.provisionedThroughputOverride, of: definition)
                definition = try overrideReplica(
                    definition, in: change.regionName, read: change.provisionedThroughputOverride,
                    tableClass: change.tableClassOverride, hub: hub, accessKeyID: accessKeyID)
                statuses[change.regionName] = .updating
            } else if let delete = update.delete {
                definition = try deleteReplica(of: definition, in: delete.regionName, hub: hub, accessKeyID: accessKeyID)
                statuses[delete.regionName] = .deleting
            }
        }
        return ReplicaUpdateResult(definition: definition, statuses: statuses)
    }

    /// A replica's own read capacity (`ProvisionedThroughputOverride`) needs a provisioned table.
    private static func checkReadOverride(_ override: ProvisionedThroughputOverride?, of definition: TableDefinition) throws {
        guard let read = override?.readCapacityUnits else { return }
        if definition.billingMode == .payPerRequest {
            throw EngineMessages.neitherReadCapacityUnitsNorWriteCapacityUnitsSpecified
        }
        try TableValidation.checkThroughputBounds(read: read, write: max(1, definition.throughput.writeCapacityUnits))
    }

    /// Sets a replica's own read capacity and table class in its region; the override is recorded
    /// in the group so every replica reports it. Answers this table's definition afterwards.
    private func overrideReplica(
        _ definition: TableDefinition, in target: String, read: ProvisionedThroughputOverride?,
        tableClass: TableClass?, hub: ReplicationHub, accessKeyID: String?
    ) throws -> TableDefinition {
        guard read?.readCapacityUnits != nil || tableClass != nil else { return definition }
        let database = try hub.database(accessKeyID: accessKeyID, region: target)
        _ = try database.updateDefinition(named: definition.name) { replica in
            if let units = read?.readCapacityUnits { replica.throughput.readCapacityUnits = units }
            if let tableClass { replica.tableClass = tableClass }
        }
        guard let units = read?.readCapacityUnits, var group = definition.settings?.replication else { return definition }
        var overrides = group.readOverrides ?? [:]
        overrides[target] = units == definition.throughput.readCapacityUnits ? nil : units
        group.readOverrides = overrides.isEmpty ? nil : overrides
        try setGroup(group, table: definition.name, regions: group.regions, hub: hub, accessKeyID: accessKeyID, now: clock.now())
        return try table(named: definition.name)
    }

    private func createReplica(
        of definition: TableDefinition, in target: String, tableClass: TableClass?,
        hub: ReplicationHub, accessKeyID: String?, now: Double
    ) throws -> TableDefinition {
        let autoScaling = definition.settings?.autoScaling ?? [:]
        if definition.billingMode != .payPerRequest {
            guard autoScaling["write"] != nil else {
                throw EngineMessages.tableWriteCapacityNotAutoScaled
            }
            if definition.globalIndexes.contains(where: { autoScaling["index:\($0.name):write"] == nil }) {
                throw EngineMessages.indexWriteCapacityNotAutoScaled
            }
        }
        let targetDatabase = try hub.database(accessKeyID: accessKeyID, region: target)
        if targetDatabase.cachedDefinition(definition.name) != nil {
            throw ReplicaUpdateRules.alreadyExisted(definition.name)
        }
        let existing = definition.settings?.replication?.regions ?? [region]
        let group = ReplicationGroup(
            version: GlobalTableVersion.current, regions: existing + [target],
            createdAt: definition.settings?.replication?.createdAt ?? now)
        // The replica: same keys, indexes, billing and stream; its own id, no tags, no policies.
        var replica = definition
        replica.tableID = UUID().uuidString.lowercased()
        replica.creationDateTime = now
        replica.tags = [:]
        replica.tagOrder = []
        replica.tableClass = tableClass ?? definition.tableClass
        // The first copy writes every item with all its index entries: the replica's indexes are
        // complete once it is filled (an index being dropped here is not carried over).
        replica.globalIndexes = definition.globalIndexes.filter { $0.status != .deleting }.map { index in
            var index = index
            index.status = .active
            return index
        }
        replica.vectorIndexes = definition.vectorIndexes.map(\.filled)
        if replica.streamViewType == nil {
            replica.streamViewType = .newAndOldImages
            replica.streamLabel = StreamLabel.make(now: now)
        }
        var settings = TableSettings()
        settings.replication = group
        settings.warmRead = definition.settings?.warmRead
        settings.warmWrite = definition.settings?.warmWrite
        // DynamoDB mirrors the auto scaling targets into the new replica's region.
        settings.autoScaling = definition.settings?.autoScaling
        replica.settings = settings
        _ = try targetDatabase.insertTable(replica)
        try setGroup(group, table: definition.name, regions: existing, hub: hub, accessKeyID: accessKeyID, now: now)
        // The first copy runs on the delivery queue: changes made from here on are delivered after it.
        try hub.serialized { try targetDatabase.copyItems(from: self, table: definition.name) }
        return try table(named: definition.name)
    }

    private func deleteReplica(
        of definition: TableDefinition, in target: String,
        hub: ReplicationHub, accessKeyID: String?
    ) throws -> TableDefinition {
        guard let current = definition.settings?.replication else { return definition }
        let targetDatabase = try hub.database(accessKeyID: accessKeyID, region: target)
        if targetDatabase.cachedDefinition(definition.name)?.deletionProtectionEnabled == true {
            throw EngineMessages.replicaDeletionProtected(definitionName: definition.name, target: target)
        }
        let remaining = current.regions.filter { $0 != target }
        let group = current.leaving(target)
        try setGroup(group, table: definition.name, regions: remaining, hub: hub, accessKeyID: accessKeyID, now: clock.now())
        _ = try targetDatabase.updateDefinition(named: definition.name) { $0.settings?.replication = nil }
        _ = try targetDatabase.deleteTable(named: definition.name)
        return try table(named: definition.name)
    }

    /// Writes the replication group into the table of every region in `regions` (this one
    /// included); `nil` ends replication.
    func setGroup(
        _ group: ReplicationGroup?, table name: String, regions: [String],
        hub: ReplicationHub, accessKeyID: String?, now: Double
    ) throws {
        for member in regions {
            let database = member == region ? self : try hub.database(accessKeyID: accessKeyID, region: member)
            _ = try database.updateDefinition(named: name) { definition, connection in
                if group != nil, definition.streamViewType == nil {
                    // A real stream (its storage and first shard), as UpdateTable would start.
                    definition.streamViewType = .newAndOldImages
                    definition.streamLabel = try StreamCatalog.startStream(
                        for: definition, viewType: StreamViewType.newAndOldImages.rawValue, now: now, connection: connection)
                }
                var settings = definition.controlSettings
                settings.replication = group
                definition.controlSettings = settings
            }
        }
    }
}

extension TableSnapshot {
    /// `Replicas` of a 2019.11.21 global table as DescribeTable reports them: every other
    /// region of the group (and any the request just removed), with its status.
    package var replicaDescriptions: [ReplicaDescription]? {
        let group = definition.settings?.replication
        guard group?.version == GlobalTableVersion.current || !replicaStatus.isEmpty else { return nil }
        var regions = (group?.regions ?? []).filter { $0 != region }
        for removed in replicaStatus.keys.sorted() where !regions.contains(removed) { regions.append(removed) }
        guard !regions.isEmpty else { return nil }
        return regions.map { member in
            ReplicaDescription(
                regionName: member, replicaStatus: replicaStatus[member] ?? .active,
                replicaArn: ResourceNames.tableARN(region: member, table: definition.name),
                provisionedThroughputOverride: group?.readOverrides?[member].map { ProvisionedThroughputOverride(readCapacityUnits: $0) },
                warmThroughput: definition.warmThroughput(now: .infinity))
        }
    }
}

extension Database {
    /// An UpdateTable with `ReplicaUpdates`, which must be the request's only change: the table
    /// UPDATING, the replicas it touched with their new statuses.
    func describeReplicaUpdate(
        _ updates: [ReplicationGroupUpdate], alongsideOtherChanges: Bool,
        table reference: String, now: Double
    ) throws -> TableSnapshot {
        if alongsideOtherChanges {
            throw EngineMessages.replicaUpdatesOnlyOperationRequest
        }
        let result = try updateReplicas(updates, table: reference, now: now)
        var snapshot = try describeTable(named: result.definition.name)
        snapshot.status = .updating
        snapshot.replicaStatus = result.statuses
        return snapshot
    }
}

extension Database {
    /// Before a replicated table is deleted with DeleteTable: the other replicas drop this
    /// region from their group (a group of one ends), so nothing is sent here any more.
    func leaveReplicationGroup(_ definition: TableDefinition) throws {
        guard let group = definition.settings?.replication, let (hub, accessKeyID) = replication.connection else { return }
        let remaining = group.regions.filter { $0 != region }
        let others = group.leaving(region)
        for member in remaining {
            let database = try hub.database(accessKeyID: accessKeyID, region: member)
            guard database.cachedDefinition(definition.name)?.settings?.replication != nil else { continue }
            _ = try database.updateDefinition(named: definition.name) { $0.settings?.replication = others }
        }
    }
}

extension ReplicationGroup {
    /// The group without `region` (and its override), or `nil` when fewer than two regions stay.
    func leaving(_ region: String) -> ReplicationGroup? {
        var group = self
        group.regions.removeAll { $0 == region }
        group.readOverrides?[region] = nil
        if group.readOverrides?.isEmpty == true { group.readOverrides = nil }
        return group.regions.count > 1 ? group : nil
    }
}
