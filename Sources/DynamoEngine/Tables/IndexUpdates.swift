import DynamoAPI

/// What an UpdateTable's `GlobalSecondaryIndexUpdates` changed, for the response and for the
/// background work that follows (a backfill or a drop).
struct IndexChanges {
    /// The index being created (status CREATING, to be backfilled).
    var created: String?
    /// The index being deleted (status DELETING, to be dropped).
    var deleted: String?
    /// Indexes whose throughput changed (reported UPDATING in the response).
    var updated: [String] = []
}

/// UpdateTable's `GlobalSecondaryIndexUpdates`, checked as DynamoDB checks them, with its messages.
enum IndexUpdates {
    /// DynamoDB's limit on global secondary indexes per table.
    static let maximumGlobalIndexes = 20

    static let onlineIndexLimit = EngineMessages.oneOnlineIndexChangeAtATime

    /// DynamoDB's refusals of an index Create or Delete combined with other table changes.
    static func checkCombination(_ updates: [GlobalSecondaryIndexUpdate], with input: UpdateTableInput) throws(DynamoError) {
        guard updates.contains(where: { $0.create != nil || $0.delete != nil }) else { return }
        if input.provisionedThroughput != nil {
            throw EngineMessages.indexChangeWithThroughputChange
        }
        if input.streamSpecification != nil {
            throw EngineMessages.indexChangeWithStreamChange
        }
        if input.deletionProtectionEnabled != nil {
            throw EngineMessages.deletionProtectionModificationOnlyOperationRequest
        }
        if input.sseSpecification != nil {
            throw EngineMessages.serverSideEncryptionModificationOnly
        }
        if input.tableClass != nil {
            throw EngineMessages.tableClassModificationOnlyOperationRequest
        }
    }

    /// Validates `updates` against the table and applies them to `definition`: a created index
    /// is added as CREATING, a deleted one marked DELETING, an updated one gets its throughput.
    ///
    /// - Parameter billingMode: the table's billing mode once the request applies (a request
    ///   may switch it and give the indexes their throughput together).
    static func apply(
        _ updates: [GlobalSecondaryIndexUpdate], attributeDefinitions: [AttributeDefinition]?,
        to definition: inout TableDefinition, billingMode: BillingMode,
        now: Double
    ) throws(DynamoError) -> IndexChanges {
        var names = Set<String>()
        for update in updates {
            let actions = [update.create?.indexName, update.update?.indexName, update.delete?.indexName].compactMap { $0 }
            if actions.isEmpty {
                throw EngineMessages.oneGlobalSecondaryIndexUpdateUpdateGlobalSecondaryIndexUpdateCreate
            }
            if actions.count > 1 {
                throw EngineMessages.oneActionPerIndexUpdate
            }
            guard names.insert(actions[0]).inserted else {
                throw EngineMessages.twoUpdatesForOneIndex(actions: actions)
            }
        }
        let onlineChanges = updates.filter { $0.create != nil || $0.delete != nil }.count
        let building =
            definition.globalIndexes.contains { $0.status == .creating || $0.status == .deleting }
            || definition.vectorIndexes.contains { $0.building == true }
        if onlineChanges > 1 || (onlineChanges == 1 && building) { throw onlineIndexLimit }

        var changes = IndexChanges()
        for update in updates {
            if let create = update.create {
                try self.create(
                    create, attributeDefinitions: attributeDefinitions, in: &definition, billingMode: billingMode, now: now)
                changes.created = create.indexName
            } else if let delete = update.delete {
                let position = try globalIndexPosition(delete.indexName, in: definition, verb: "delete")
                definition.globalIndexes[position].status = .deleting
                changes.deleted = delete.indexName
            } else if let change = update.update {
                let position = try globalIndexPosition(change.indexName, in: definition, verb: "update")
                try updateThroughput(change, of: &definition.globalIndexes[position], billingMode: billingMode, now: now)
                try definition.globalIndexes[position].applyWarmThroughput(change.warmThroughput, now: now)
                changes.updated.append(change.indexName)
            }
        }
        return changes
    }

    private static func create(
        _ create: CreateGlobalSecondaryIndexAction, attributeDefinitions: [AttributeDefinition]?,
        in definition: inout TableDefinition, billingMode: BillingMode, now: Double
    ) throws(DynamoError) {
        if definition.index(named: create.indexName) != nil {
            throw EngineMessages.attemptingCreateIndexWhichAlready
        }
        guard let attributeDefinitions else {
            throw EngineMessages.attributeDefinitionsNotSpecifiedIndex(indexName: create.indexName)
        }
        // The new index's key attributes must be among the request's own definitions, a table
        // key or an existing index's key included (the service checks that list, not the stored
        // one: nubo-db/dynoxide#144, eu-west-2 2026-07-12; alexdebrie/dynamodbguide.com#16);
        // an attribute the table already defines keeps its stored type (paritysuite#78).
        let requested = attributeDefinitions.map { given in
            definition.attributeDefinitions.first { $0.name == given.attributeName }
                ?? KeyAttribute(
                    name: given.attributeName,
                    type: KeyScalarType(rawValue: given.attributeType.rawValue) ?? .string)
        }
        let schema = create.keySchema.map { (name: $0.attributeName, keyType: $0.keyType) }
        let (partition, sort) = try TableValidation.resolveGlobalIndexKeySchema(schema, definitions: requested)
        let projection = try TableValidation.checkProjection(
            type: create.projection.projectionType, nonKeyAttributes: create.projection.nonKeyAttributes)
        if billingMode != .payPerRequest, create.provisionedThroughput == nil {
            // UpdateTable's wording differs from CreateTable's for the same omission.
            throw EngineMessages.bothReadCapacityUnitsWriteCapacityUnitsSpecifiedIndex(indexName: create.indexName)
        }
        let throughput = try TableValidation.indexThroughput(
            create.provisionedThroughput, index: create.indexName, billingMode: billingMode)
        if definition.globalIndexes.count >= maximumGlobalIndexes {
            throw EngineMessages.subscriberLimitExceededNumberGlobal(maximumGlobalIndexes: maximumGlobalIndexes)
        }
        let number = (definition.indexes.map(\.storageNumber).max() ?? 0) + 1
        var index = TableValidation.globalIndex(
            name: create.indexName, partition: partition, sort: sort, projection: projection,
            nonKeyAttributes: create.projection.nonKeyAttributes, throughput: throughput, status: .creating,
            storageNumber: number)
        try index.applyWarmThroughput(create.warmThroughput, now: now)
        definition.globalIndexes.append(index)
        for key in partition + sort where !definition.attributeDefinitions.contains(key) {
            definition.attributeDefinitions.append(key)
        }
    }

    /// The position of a global index that a Delete or Update names, or DynamoDB's error.
    private static func globalIndexPosition(
        _ name: String, in definition: TableDefinition,
        verb: String
    ) throws(DynamoError) -> Int {
        if definition.localIndexes.contains(where: { $0.name == name }) {
            throw EngineMessages.cannotIndexThatNotGlobalSecondaryIndex(verb: verb, name: name)
        }
        guard let position = definition.globalIndexes.firstIndex(where: { $0.name == name }) else {
            throw EngineMessages.indexNotFoundForTable(name: name, definitionName: definition.name)
        }
        if definition.globalIndexes[position].status == .deleting {
            throw EngineMessages.indexBeingDeleted(definitionName: definition.name, name: name)
        }
        return position
    }

    private static func updateThroughput(
        _ change: UpdateGlobalSecondaryIndexAction, of index: inout IndexDefinition,
        billingMode: BillingMode, now: Double
    ) throws(DynamoError) {
        guard let given = change.provisionedThroughput else { return }
        if billingMode == .payPerRequest {
            throw EngineMessages.onlyUpdatesIndexWhenTableThroughputMode(indexName: index.name)
        }
        try TableValidation.checkThroughputBounds(read: given.readCapacityUnits, write: given.writeCapacityUnits)
        var throughput = index.throughput ?? ThroughputSettings(readCapacityUnits: 0, writeCapacityUnits: 0)
        let name = index.name
        if throughput.readCapacityUnits == given.readCapacityUnits, throughput.writeCapacityUnits == given.writeCapacityUnits {
            throw EngineMessages.indexThroughputUnchanged(
                name: name, currentRead: throughput.readCapacityUnits, requestedRead: given.readCapacityUnits,
                currentWrite: throughput.writeCapacityUnits, requestedWrite: given.writeCapacityUnits)
        }
        if given.readCapacityUnits > throughput.readCapacityUnits || given.writeCapacityUnits > throughput.writeCapacityUnits {
            throughput.lastIncreaseDateTime = now
        }
        if given.readCapacityUnits < throughput.readCapacityUnits || given.writeCapacityUnits < throughput.writeCapacityUnits {
            throughput.lastDecreaseDateTime = now
            throughput.numberOfDecreasesToday += 1
        }
        throughput.readCapacityUnits = given.readCapacityUnits
        throughput.writeCapacityUnits = given.writeCapacityUnits
        index.throughput = throughput
    }
}
