import DynamoAPI

extension Database {
    /// UpdateTable for billing mode, provisioned throughput, streams, SSE, table class,
    /// deletion protection and global secondary indexes (`GlobalSecondaryIndexUpdates`: one
    /// Create or Delete per call, any number of throughput Updates).
    ///
    /// A created index is CREATING until a background backfill has indexed every item; a
    /// deleted one is DELETING until a background drop removes it (see `Database+IndexBuilds`).
    ///
    /// `VectorIndexUpdates` on a global table change every replica (``replicateVectorIndexUpdates``);
    /// `propagates` is `false` for that change made in another replica's region.
    package func updateTable(_ input: UpdateTableInput, now: Double, propagates: Bool = true) throws -> TableSnapshot {
        _ = try table(named: input.tableName)
        try TableValidation.checkTableClass(input.tableClass)
        if let answer = try updateTableDisassociation(input, now: now) { return answer }
        let indexUpdates = input.globalSecondaryIndexUpdates.flatMap { $0.isEmpty ? nil : $0 }
        let vectorUpdates = input.vectorIndexUpdates.flatMap { $0.isEmpty ? nil : $0 }
        let changesSomething =
            vectorUpdates != nil || input.billingMode != nil || input.provisionedThroughput != nil
            || input.streamSpecification != nil || input.sseSpecification != nil || input.tableClass != nil
            || input.deletionProtectionEnabled != nil || input.onDemandThroughput != nil
            || indexUpdates != nil || input.warmThroughput != nil
        let replicaUpdates = input.replicaUpdates.flatMap { $0.isEmpty ? nil : $0 }
        if let replicaUpdates {
            return try describeReplicaUpdate(
                replicaUpdates, alongsideOtherChanges: changesSomething,
                table: input.tableName, now: now)
        }
        guard changesSomething else {
            throw EngineMessages.atLeastOneProvisionedThroughputBillingMode
        }
        if input.globalSecondaryIndexUpdates?.isEmpty == true {
            throw EngineMessages.listGlobalSecondaryIndexUpdatesEmpty
        }
        if let indexUpdates { try IndexUpdates.checkCombination(indexUpdates, with: input) }
        var statusChanges = false
        var indexChanges = IndexChanges()
        var vectorChanges = VectorIndexValidation.Changes()
        let updated = try updateDefinition(named: input.tableName) { definition, connection in
            let switchesToProvisioned = input.billingMode == .provisioned && definition.billingMode != .provisioned
            if switchesToProvisioned, !definition.vectorIndexes.isEmpty { throw EngineMessages.vectorIndexesOnlyOnDemand }
            if let vectorUpdates {
                let changesGlobal = indexUpdates?.contains { $0.create != nil || $0.delete != nil } ?? false
                vectorChanges = try VectorIndexValidation.apply(
                    vectorUpdates, requestDefinitions: input.attributeDefinitions, changesGlobalIndexes: changesGlobal,
                    to: &definition)
                if let created = vectorChanges.created {
                    let store = VectorStore(table: definition, index: created, connection: connection)
                    try store.create()
                    // Over a table with items the index is built in the background, chunk by
                    // chunk (`Database+VectorBackfill`), and shown backfilling until then and
                    // for a while of the server clock at least, as the service does.
                    if try store.tableHasItems(), let position = definition.vectorIndexes.firstIndex(of: created) {
                        definition.vectorIndexes[position].backfilledAt = now + max(transientStatuses.delay, Self.vectorBackfillSeconds)
                        definition.vectorIndexes[position].building = true
                        vectorChanges.created = definition.vectorIndexes[position]
                    }
                }
                if let deleted = vectorChanges.deleted {
                    try VectorStore(table: definition, index: deleted, connection: connection).drop()
                }
                statusChanges = true
            }
            if let indexUpdates {
                indexChanges = try IndexUpdates.apply(
                    indexUpdates, attributeDefinitions: input.attributeDefinitions,
                    to: &definition, billingMode: input.billingMode ?? definition.billingMode,
                    now: now)
                if let created = indexChanges.created, let index = definition.index(named: created) {
                    try connection.dropTable(named: IndexStore.name(table: definition, index: index))
                    try connection.execute(IndexStore.createSQL(table: definition, index: index))
                }
                if indexChanges.created != nil || indexChanges.deleted != nil { statusChanges = true }
            }
            let mode = input.billingMode ?? definition.billingMode
            if mode == .payPerRequest {
                if input.provisionedThroughput != nil {
                    throw EngineMessages.neitherReadCapacityUnitsNorWriteCapacityUnitsSpecified
                }
                if definition.billingMode != mode {
                    definition.billingMode = mode
                    definition.billingModeLastUpdate = now
                    definition.throughput.readCapacityUnits = 0
                    definition.throughput.writeCapacityUnits = 0
                    for position in definition.globalIndexes.indices { definition.globalIndexes[position].throughput = nil }
                    statusChanges = true
                }
            } else {
                // Restating the current mode (BillingMode PROVISIONED on a provisioned table) is
                // no change: the same throughput beside it is still refused below.
                let switchesMode = definition.billingMode != mode
                if switchesMode {
                    guard input.provisionedThroughput != nil else {
                        throw EngineMessages.provisionedThroughputSpecifiedWhenBillingModeProvisioned
                    }
                    definition.billingMode = mode
                    definition.billingModeLastUpdate = now
                    statusChanges = true
                }
                if let throughput = input.provisionedThroughput {
                    try TableValidation.checkThroughputBounds(
                        read: throughput.readCapacityUnits,
                        write: throughput.writeCapacityUnits)
                    let old = definition.throughput
                    if old.readCapacityUnits == throughput.readCapacityUnits,
                        old.writeCapacityUnits == throughput.writeCapacityUnits, !switchesMode,
                        input.tableClass == nil, input.deletionProtectionEnabled == nil, input.streamSpecification == nil,
                        input.sseSpecification == nil, indexUpdates == nil
                    {
                        throw EngineMessages.throughputUnchanged(
                            currentRead: old.readCapacityUnits, requestedRead: throughput.readCapacityUnits, currentWrite: old.writeCapacityUnits,
                            requestedWrite: throughput.writeCapacityUnits)
                    }
                    if throughput.readCapacityUnits > old.readCapacityUnits
                        || throughput.writeCapacityUnits > old.writeCapacityUnits
                    {
                        definition.throughput.lastIncreaseDateTime = now
                    }
                    if throughput.readCapacityUnits < old.readCapacityUnits
                        || throughput.writeCapacityUnits < old.writeCapacityUnits
                    {
                        definition.throughput.lastDecreaseDateTime = now
                        definition.throughput.numberOfDecreasesToday += 1
                    }
                    definition.throughput.readCapacityUnits = throughput.readCapacityUnits
                    definition.throughput.writeCapacityUnits = throughput.writeCapacityUnits
                    statusChanges = true
                }
            }
            if switchesToProvisioned,
                let unset = definition.globalIndexes.first(where: { $0.throughput == nil && $0.status != .deleting })
            {
                // Nothing is assigned: every global index needs its own throughput in the same call.
                throw EngineMessages.provisionedThroughputSpecifiedIndex(unsetName: unset.name)
            }
            if let stream = input.streamSpecification {
                if stream.streamEnabled {
                    guard let viewType = stream.streamViewType else {
                        throw EngineMessages.ifStreamBeingEnabledThen
                    }
                    if definition.streamViewType != nil {
                        throw EngineMessages.tableAlreadyEnabledStreamTableName(definitionName: definition.name)
                    }
                    definition.streamViewType = viewType
                    definition.streamLabel = try StreamCatalog.startStream(
                        for: definition, viewType: viewType.rawValue, now: now,
                        connection: connection)
                } else {
                    if stream.streamViewType != nil {
                        throw EngineMessages.ifStreamBeingDisabledThen
                    }
                    if definition.streamViewType == nil {
                        throw EngineMessages.tableNoStreamDisableTableName(definitionName: definition.name)
                    }
                    definition.streamViewType = nil
                    if let label = definition.streamLabel {
                        try StreamCatalog.endStream(table: definition.name, label: label, now: now, connection: connection)
                    }
                }
            }
            if let sse = input.sseSpecification {
                try TableValidation.checkEncryption(sse)
                definition.sseEnabled = sse.enabled ?? definition.sseEnabled
                definition.sseType = definition.sseEnabled ? (sse.sseType ?? .kms) : nil
                definition.kmsMasterKeyID = sse.kmsMasterKeyId ?? definition.kmsMasterKeyID
            }
            if let tableClass = input.tableClass { definition.tableClass = tableClass; statusChanges = true }
            if let protection = input.deletionProtectionEnabled { definition.deletionProtectionEnabled = protection }
            try definition.applyWarmThroughput(input.warmThroughput, updating: true, now: now)
            if let onDemand = input.onDemandThroughput {
                try TableValidation.checkOnDemand(onDemand, clears: true)
                definition.onDemandMaxRead = onDemand.maxReadRequestUnits ?? definition.onDemandMaxRead
                definition.onDemandMaxWrite = onDemand.maxWriteRequestUnits ?? definition.onDemandMaxWrite
            }
        }
        for name in [indexChanges.created, indexChanges.deleted].compactMap({ $0 }) {
            startIndexWork(table: updated, index: name)
        }
        // A database opened with `resumeBackgroundWork: false` leaves vector backfills to its
        // caller (tests step them).
        if let created = vectorChanges.created, created.building == true, runsBackgroundWork {
            startIndexWork(table: updated, index: created.name)
        }
        holdTransientStatuses(of: updated, changes: indexChanges, statusChanges: statusChanges, now: now)
        if let deleted = vectorChanges.deleted {
            transientStatuses.hold(vectorIndex: deleted.name, of: updated.name, status: .deleting, deleted: deleted, now: now)
        }
        if propagates, let vectorUpdates, let group = updated.settings?.replication {
            try replicateVectorIndexUpdates(
                vectorUpdates, attributeDefinitions: input.attributeDefinitions, table: updated.name, regions: group.regions)
        }
        var snapshot = try describeTable(named: updated.name)
        // The response shows the table as the request left it, before any background work.
        snapshot.definition = updated
        snapshot.status = statusChanges ? .updating : .active
        snapshot.backfilling = false
        for name in indexChanges.updated { snapshot.indexStatus[name] = .updating }
        if let created = vectorChanges.created { snapshot.vectorIndexStatus[created.name] = .creating }
        if let deleted = vectorChanges.deleted, !snapshot.deletedVectorIndexes.contains(deleted) {
            snapshot.deletedVectorIndexes.append(deleted)
        }
        return snapshot
    }

    /// Makes the vector index change UpdateTable made here in every other replica of the global
    /// table, each replica's index built from its own items (backfilled on its own when it has
    /// some). The developer guide ("Using vector indexes with global tables") says a vector index
    /// is not created separately in each Region and that each replica's index backfills
    /// independently; global tables keep a global index's definition synchronized across replicas
    /// as well. The replicas' definitions are the same, so what this Region accepted they accept.
    private func replicateVectorIndexUpdates(
        _ updates: [VectorIndexUpdate], attributeDefinitions: [AttributeDefinition]?, table: String, regions: [String]
    ) throws {
        let (hub, accessKeyID) = try replicationConnection()
        for member in regions where member != region {
            let replica = try hub.database(accessKeyID: accessKeyID, region: member)
            _ = try replica.updateTable(
                UpdateTableInput(attributeDefinitions: attributeDefinitions, tableName: table, vectorIndexUpdates: updates),
                now: replica.clock.now(), propagates: false)
        }
    }

    /// Seconds of the server clock a vector index added to a table with items stays CREATING
    /// (backfilling), at least: the service's backfill takes minutes; a local one may take less
    /// but is shown this long, so that code which searches before the index is ACTIVE fails here
    /// as it would there.
    static let vectorBackfillSeconds = 1.0

    /// What `-delayTransientStatuses` keeps visible after an UpdateTable: a new index CREATING,
    /// a deleted one DELETING, otherwise the table UPDATING.
    private func holdTransientStatuses(of updated: TableDefinition, changes: IndexChanges, statusChanges: Bool, now: Double) {
        if let created = changes.created {
            transientStatuses.hold(index: created, of: updated.name, status: .creating, now: now)
        } else if let deleted = changes.deleted {
            transientStatuses.hold(
                index: deleted, of: updated.name, status: .deleting,
                deleted: updated.index(named: deleted), now: now)
        } else if statusChanges {
            transientStatuses.hold(table: updated.name, status: .updating, now: now)
        }
    }
}
