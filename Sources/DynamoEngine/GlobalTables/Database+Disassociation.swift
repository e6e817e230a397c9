import DynamoAPI

/// UpdateTable's replica disassociation (global tables version 2019.11.21): `ReplicaUpdates`
/// `[{"Disassociate": {"RegionName", "DisassociationMode": "WAIT_FOR_REPLICATION"}}]` and
/// `DisassociationProtectionEnabled`.
///
/// What the API reference and the developer guide ("Disassociating a global table replica")
/// say, and what is done here:
/// - the local replica (RegionName must be the region the request is sent to) becomes a
///   single-Region table that keeps its name, ARN, items, indexes, stream, TTL and other
///   settings; with three or more replicas the others go on as a global table, with two both
///   become single-Region tables; writes no longer replicate either way;
/// - `WAIT_FOR_REPLICATION`: the change is made on the replication queue after every change
///   queued so far reached its replicas;
/// - a Disassociate must be the only replica update and the only change of the request;
/// - disassociation protection is on by default and refuses a Disassociate while on; turning it
///   on or off must be the request's only change, and only a replica has it (DescribeTable
///   reports it for replicas only);
/// - replicas of 2017.11.29 global tables cannot be disassociated.
extension Database {
    /// The answer of an UpdateTable that disassociates the local replica or sets its
    /// disassociation protection; `nil` when the request does neither (UpdateTable goes on).
    func updateTableDisassociation(_ input: UpdateTableInput, now: Double) throws -> TableSnapshot? {
        let updates = input.replicaUpdates ?? []
        if let protection = input.disassociationProtectionEnabled {
            guard updates.isEmpty, !Self.changesBesidesReplicas(input) else {
                throw EngineMessages.disassociationProtectionOnlyOperation
            }
            return try setDisassociationProtection(protection, table: input.tableName)
        }
        guard let action = updates.lazy.compactMap(\.disassociate).first else { return nil }
        let alone = updates.count == 1 && updates[0].create == nil && updates[0].update == nil && updates[0].delete == nil
        guard alone, !Self.changesBesidesReplicas(input) else {
            throw EngineMessages.disassociateOnlyOperation
        }
        return try disassociate(action, table: input.tableName, now: now)
    }

    /// Whether the request sets any member but TableName, ReplicaUpdates and
    /// DisassociationProtectionEnabled (read from its encoded members, so members a newer model
    /// adds count too).
    private static func changesBesidesReplicas(_ input: UpdateTableInput) -> Bool {
        guard case .object(let members)? = try? JSONValue(parsing: input.jsonBytes) else { return true }
        let allowed: Set<String> = ["TableName", "ReplicaUpdates", "DisassociationProtectionEnabled"]
        return members.keys.contains { !allowed.contains($0) }
    }

    /// The table's replication group, when it is a replica of a 2019.11.21 global table.
    private func replicaGroup(_ definition: TableDefinition) throws -> ReplicationGroup {
        guard let group = definition.settings?.replication else {
            throw EngineMessages.notAGlobalTableReplica(definitionName: definition.name)
        }
        guard group.version == GlobalTableVersion.current else {
            throw EngineMessages.legacyGlobalTableDisassociation(definitionName: definition.name)
        }
        return group
    }

    private func setDisassociationProtection(_ enabled: Bool, table name: String) throws -> TableSnapshot {
        _ = try replicaGroup(try table(named: name))
        let updated = try updateDefinition(named: name) { definition in
            var settings = definition.controlSettings
            settings.disassociationProtectionOff = enabled ? nil : true
            definition.controlSettings = settings
        }
        var snapshot = try describeTable(named: updated.name)
        snapshot.definition = updated
        return snapshot
    }

    private func disassociate(
        _ action: DisassociateReplicationGroupMemberAction, table name: String, now: Double
    ) throws -> TableSnapshot {
        guard action.regionName == region else {
            throw EngineMessages.disassociateOtherRegion(regionName: action.regionName, localRegion: region)
        }
        let (hub, accessKeyID) = try replicationConnection()
        let definition = try table(named: name)
        let group = try replicaGroup(definition)
        guard definition.settings?.disassociationProtectionOff == true else {
            throw EngineMessages.replicaDisassociationProtected(definitionName: definition.name, region: region)
        }
        let others = group.regions.filter { $0 != region }
        let remaining = group.leaving(region)
        try hub.serialized {
            try setGroup(remaining, table: definition.name, regions: others, hub: hub, accessKeyID: accessKeyID, now: now)
            // A table that is no replica any more has no disassociation protection either.
            let ended = remaining == nil ? others + [region] : [region]
            for member in ended {
                let database = member == region ? self : try hub.database(accessKeyID: accessKeyID, region: member)
                _ = try database.updateDefinition(named: definition.name) { table in
                    var settings = table.controlSettings
                    settings.replication = nil
                    settings.disassociationProtectionOff = nil
                    table.controlSettings = settings
                }
            }
        }
        // The answer: the table UPDATING with the replicas it had; DescribeTable shows it ACTIVE
        // without replicas from now on (the service's sign that the disassociation completed).
        var snapshot = try describeTable(named: definition.name)
        snapshot.status = .updating
        for member in others { snapshot.replicaStatus[member] = .active }
        return snapshot
    }
}

extension TableDefinition {
    /// DescribeTable's `DisassociationProtectionEnabled`: on unless turned off, for a replica of
    /// a 2019.11.21 global table; `nil` (not reported) for any other table.
    package var disassociationProtectionReport: Bool? {
        guard settings?.replication?.version == GlobalTableVersion.current else { return nil }
        return settings?.disassociationProtectionOff != true
    }
}
