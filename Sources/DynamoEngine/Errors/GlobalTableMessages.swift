import DynamoAPI

// EngineMessages, continued: global tables: replicas, their settings and auto scaling, the 2017 API, replication.

// MARK: - GlobalTables/Database+GlobalTableSettings.swift

extension EngineMessages {
    /// Thrown by GlobalTableSettings (updateGlobalTableSettings), LegacyGlobalTables (updateGlobalTable).
    static func replicaNotFoundRegion(regionName: String) -> DynamoError {
        DynamoError(.replicaNotFound, "Replica not found in region: \(regionName)")
    }

    /// Thrown by GlobalTableSettings (updateGlobalTableSettings), ContributorInsights (insightsTarget).
    static func requestedResourceNotFoundIndex(indexName: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Index: \(indexName) not found")
    }
}

// MARK: - GlobalTables/Database+LegacyGlobalTables.swift

extension EngineMessages {
    /// Thrown by LegacyGlobalTables (legacyGroup).
    static let globalTableNotFound = DynamoError(.globalTableNotFound, "Global table not found")

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func tableNotFoundRegion(name: String, region: String) -> DynamoError {
        DynamoError(.tableNotFound, "Table: \(name) not found in region: \(region)")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaKeySchemaDiffers(name: String, region: String) -> DynamoError {
        .validation(invalidParameters + "Table: \(name) in region: \(region) does not have the same key schema as the other replicas")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaNeedsNewAndOldImagesStream(name: String, region: String) -> DynamoError {
        .validation(
            invalidParameters + "Table: \(name) in region: \(region) must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES")
    }

    /// Thrown by LegacyGlobalTables (joiningTable).
    static func replicaNotEmpty(name: String, region: String) -> DynamoError {
        .validation(invalidParameters + "Table: \(name) in region: \(region) must be empty to join a global table")
    }

    /// Thrown by LegacyGlobalTables (createGlobalTable).
    static let globalTableNameAlreadyExists = DynamoError(.globalTableAlreadyExists, "Global table with this name already exists")

    /// Thrown by LegacyGlobalTables (updateGlobalTable).
    static func replicaAlreadyExistsRegion(regionName: String) -> DynamoError {
        DynamoError(.replicaAlreadyExists, "Replica already exists in region: \(regionName)")
    }

    /// Thrown by LegacyGlobalTables (updateGlobalTable).
    static let replicaUpdateWithoutCreateOrDelete = DynamoError.validation(
        invalidParameters + "One of Create or Delete must be specified in a ReplicaUpdate")
}

// MARK: - GlobalTables/Database+ReplicaAutoScaling.swift

extension EngineMessages {
    /// Thrown by ReplicaAutoScaling (updateTableReplicaAutoScaling).
    static let replicaAutoScalingUpdateEmpty = DynamoError.validation(
        invalidParameters + "At least one of ProvisionedWriteCapacityAutoScalingUpdate, GlobalSecondaryIndexUpdates or ReplicaUpdates is required")

    /// Thrown by ReplicaAutoScaling (updateTableReplicaAutoScaling).
    static func tableNoReplicaRegion(definitionName: String, regionName: String) -> DynamoError {
        .validation(invalidParameters + "Table \(definitionName) has no replica in region \(regionName)")
    }

    /// Thrown by ReplicaAutoScaling (merge).
    static func minimumUnitsNotGreaterThanMaximumUnits(minimum: Int, maximum: Int) -> DynamoError {
        .validation(invalidParameters + "MinimumUnits (\(minimum)) must not be greater than MaximumUnits (\(maximum))")
    }
}

// MARK: - GlobalTables/Database+ReplicaUpdates.swift

extension EngineMessages {
    /// Thrown by ReplicaUpdates (replicationConnection).
    static let globalTablesNeedRegionNamespaces = DynamoError.validation("Global tables need a server with one namespace per region")

    /// Thrown by ReplicaUpdates (updateReplicas).
    static func legacyGlobalTableReplicaUpdates(definitionName: String) -> DynamoError {
        .validation("Table \(definitionName) is a global table of version \(GlobalTableVersion.legacy): use UpdateGlobalTable to change its replicas")
    }

    /// Thrown by ReplicaUpdates (checkReadOverride), UpdateTable (updateTable), TableValidation.checkBilling.
    static let neitherReadCapacityUnitsNorWriteCapacityUnitsSpecified = DynamoError.validation(
        invalidParameters + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")

    /// Thrown by ReplicaUpdates (createReplica).
    static let tableWriteCapacityNotAutoScaled = DynamoError.validation("Table write capacity should either be Pay-Per-Request or AutoScaled.")

    /// Thrown by ReplicaUpdates (createReplica).
    static let indexWriteCapacityNotAutoScaled = DynamoError.validation("GSI write capacity should either be Pay-Per-Request or AutoScaled.")

    /// Thrown by ReplicaUpdates (deleteReplica).
    static func replicaDeletionProtected(definitionName: String, target: String) -> DynamoError {
        .validation(
            "Cannot delete table \(definitionName) in region \(target) because it has deletion protection enabled. Disable deletion protection first."
        )
    }

    /// Thrown by ReplicaUpdates (describeReplicaUpdate).
    static let replicaUpdatesOnlyOperationRequest = DynamoError.validation(
        invalidParameters + "Replica modification must be the only operation in the request")
}

// MARK: - GlobalTables/Database+Disassociation.swift

extension EngineMessages {
    /// Thrown by Disassociation (updateTableDisassociation): a Disassociate beside another replica
    /// update or another change (the API reference: "If the request includes any other update,
    /// UpdateTable fails with a ValidationException"; the service's words are not published).
    static let disassociateOnlyOperation = DynamoError.validation(
        invalidParameters + "Disassociate must be the only replica update and the only operation in the request")

    /// Thrown by Disassociation (updateTableDisassociation): DisassociationProtectionEnabled beside
    /// another change ("You can't combine this change with any other change in the same UpdateTable request").
    static let disassociationProtectionOnlyOperation = DynamoError.validation(
        invalidParameters + "DisassociationProtectionEnabled must be the only operation in the request")

    /// Thrown by Disassociation (disassociate): a RegionName other than the region the request was sent to.
    static func disassociateOtherRegion(regionName: String, localRegion: String) -> DynamoError {
        .validation(
            invalidParameters
                + "Disassociate can only disassociate the local replica: RegionName \(regionName) is not this request's region \(localRegion)")
    }

    /// Thrown by Disassociation (replicaGroup): the table is no replica of a 2019.11.21 global table.
    static func notAGlobalTableReplica(definitionName: String) -> DynamoError {
        .validation(invalidParameters + "Table \(definitionName) is not a replica of a global table of version \(GlobalTableVersion.current)")
    }

    /// Thrown by Disassociation (replicaGroup): a replica of a 2017.11.29 global table.
    static func legacyGlobalTableDisassociation(definitionName: String) -> DynamoError {
        .validation(
            invalidParameters
                + "Table \(definitionName) is a replica of a global table of version \(GlobalTableVersion.legacy), which cannot be disassociated")
    }

    /// Thrown by Disassociation (disassociate); worded after the service's deletion protection
    /// message for replicas.
    static func replicaDisassociationProtected(definitionName: String, region: String) -> DynamoError {
        .validation(
            "Cannot disassociate the replica of table \(definitionName) in region \(region) because it has disassociation protection enabled. Disable disassociation protection first."
        )
    }
}

// MARK: - GlobalTables/ReplicaUpdateRules.swift

extension EngineMessages {
    /// Thrown by ReplicaUpdateRules.alreadyExisted.
    static func failedCreateNewReplicaTable(table: String) -> DynamoError {
        .validation(
            "Failed to create a the new replica of table with name: \u{2018}\(table)\u{2019} because one or more replicas already existed as tables.")
    }

    /// Thrown by ReplicaUpdateRules.check.
    static let emptyReplicaUpdateAction = DynamoError.validation("There are no actions specified in the Replica Update Action of the request.")

    /// Thrown by ReplicaUpdateRules.check.
    static let mixedReplicaActions = DynamoError.validation("Update table operation with more than one type of replica actions not allowed.")

    /// Thrown by ReplicaUpdateRules.check.
    static let multipleReplicaCreateOrDelete = DynamoError.validation(
        "Update table operation with more than one create or delete replica actions not allowed")

    /// Thrown by ReplicaUpdateRules.check.
    static func updateGlobalTableOperationFailed(missing: [String]) -> DynamoError {
        .validation(
            "Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [\(missing.joined(separator: ", "))]."
        )
    }

    /// Thrown by ReplicaUpdateRules.localRegionError.
    static func localRegionReplicaUpdate(update: Bool) -> DynamoError {
        .validation(
            (update ? "Cannot add, delete, or update" : "Cannot add or delete")
                + " the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.")
    }
}

// MARK: - GlobalTables/ReplicationHub.swift

extension EngineMessages {
    /// Thrown by ReplicationHub.database.
    static let globalTablesNeedUnsharedDB = DynamoError.validation(
        "Global tables need one namespace per region: this server runs with --shared-db, where every region shares one set of tables")

    /// Thrown by ReplicationHub.database.
    static let replicationNotConnectedEngine = DynamoError(.internalServerError, "Replication is not connected to an engine")
}
