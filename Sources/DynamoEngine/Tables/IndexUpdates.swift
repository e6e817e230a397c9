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

    static let onlineIndexLimit = DynamoError(
        .limitExceeded, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")

    /// DynamoDB's refusals of an index Create or Delete combined with other table changes.
    static func checkCombination(_ updates: [GlobalSecondaryIndexUpdate], with input: UpdateTableInput) throws(DynamoError) {
        guard updates.contains(where: { $0.create != nil || $0.delete != nil }) else { return }
        if input.provisionedThroughput != nil {
            throw .validation("You cannot create or delete index while updating table IOPS")
        }
        if input.streamSpecification != nil {
            throw .validation("You cannot create or delete index while changing stream status")
        }
        if input.deletionProtectionEnabled != nil {
            throw .validation("DeletionProtection modification must be the only operation in the request")
        }
        if input.sseSpecification != nil {
            throw .validation("Server-Side Encryption modification must be the only operation in the request")
        }
        if input.tableClass != nil {
            throw .validation("TableClass modification must be the only operation in the request")
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
        let invalid = TableValidation.invalid
        var names = Set<String>()
        for update in updates {
            let actions = [update.create?.indexName, update.update?.indexName, update.delete?.indexName].compactMap { $0 }
            if actions.isEmpty {
                throw .validation(invalid + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")
            }
            if actions.count > 1 {
                throw .validation(invalid + "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object")
            }
            guard names.insert(actions[0]).inserted else {
                throw .validation(invalid + "Only one global secondary index update per index is allowed simultaneously. Index: \(actions[0])")
            }
        }
        let onlineChanges = updates.filter { $0.create != nil || $0.delete != nil }.count
        let building = definition.globalIndexes.contains { $0.status == .creating || $0.status == .deleting }
        if onlineChanges > 1 || (onlineChanges == 1 && building) { throw onlineIndexLimit }

        var changes = IndexChanges()
        for update in updates {
            if let create = update.create {
                try self.create(create, attributeDefinitions: attributeDefinitions, in: &definition, billingMode: billingMode)
                changes.created = create.indexName
            } else if let delete = update.delete {
                let position = try globalIndexPosition(delete.indexName, in: definition, verb: "delete")
                definition.globalIndexes[position].status = .deleting
                changes.deleted = delete.indexName
            } else if let change = update.update {
                let position = try globalIndexPosition(change.indexName, in: definition, verb: "update")
                try updateThroughput(change, of: &definition.globalIndexes[position], billingMode: billingMode, now: now)
                changes.updated.append(change.indexName)
            }
        }
        return changes
    }

    private static func create(
        _ create: CreateGlobalSecondaryIndexAction, attributeDefinitions: [AttributeDefinition]?,
        in definition: inout TableDefinition, billingMode: BillingMode
    ) throws(DynamoError) {
        let invalid = TableValidation.invalid
        if definition.index(named: create.indexName) != nil {
            throw .validation("Attempting to create an index which already exists")
        }
        guard let attributeDefinitions else {
            throw .validation(invalid + "AttributeDefinitions is not specified for index: \(create.indexName)")
        }
        // The table's definitions stand; the request's add the new index's key attributes.
        var known = definition.attributeDefinitions
        for given in attributeDefinitions where !known.contains(where: { $0.name == given.attributeName }) {
            known.append(
                KeyAttribute(
                    name: given.attributeName,
                    type: KeyScalarType(rawValue: given.attributeType.rawValue) ?? .string))
        }
        let schema = create.keySchema.map { (name: $0.attributeName, keyType: $0.keyType) }
        let (partition, sort) = try TableValidation.resolveGlobalIndexKeySchema(schema, definitions: known)
        let projection = try TableValidation.checkProjection(
            type: create.projection.projectionType, nonKeyAttributes: create.projection.nonKeyAttributes)
        if billingMode != .payPerRequest, create.provisionedThroughput == nil {
            // UpdateTable's wording differs from CreateTable's for the same omission.
            throw .validation(invalid + "Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: \(create.indexName)")
        }
        let throughput = try TableValidation.indexThroughput(
            create.provisionedThroughput, index: create.indexName, billingMode: billingMode)
        if definition.globalIndexes.count >= maximumGlobalIndexes {
            throw DynamoError(
                .limitExceeded,
                "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of \(maximumGlobalIndexes)")
        }
        let number = (definition.indexes.map(\.storageNumber).max() ?? 0) + 1
        definition.globalIndexes.append(
            TableValidation.globalIndex(
                name: create.indexName, partition: partition, sort: sort, projection: projection,
                nonKeyAttributes: create.projection.nonKeyAttributes, throughput: throughput, status: .creating,
                storageNumber: number))
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
            throw .validation("Cannot \(verb) an index that is not a GlobalSecondaryIndex: \(name)")
        }
        guard let position = definition.globalIndexes.firstIndex(where: { $0.name == name }) else {
            throw DynamoError(.resourceNotFound, "Requested resource not found: Index \(name) for table \(definition.name)")
        }
        if definition.globalIndexes[position].status == .deleting {
            throw DynamoError(
                .resourceInUse,
                "Attempt to change a resource which is still in use: Index is being deleted. Table: \(definition.name) Index: \(name)")
        }
        return position
    }

    private static func updateThroughput(
        _ change: UpdateGlobalSecondaryIndexAction, of index: inout IndexDefinition,
        billingMode: BillingMode, now: Double
    ) throws(DynamoError) {
        guard let given = change.provisionedThroughput else { return }
        if billingMode == .payPerRequest {
            throw .validation("The only Updates for index: \(index.name) when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput")
        }
        try TableValidation.checkThroughputBounds(read: given.readCapacityUnits, write: given.writeCapacityUnits)
        var throughput = index.throughput ?? ThroughputSettings(readCapacityUnits: 0, writeCapacityUnits: 0)
        let name = index.name
        if throughput.readCapacityUnits == given.readCapacityUnits, throughput.writeCapacityUnits == given.writeCapacityUnits {
            throw .validation("The provisioned throughput for the index \(name) will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for index \(name): \(throughput.readCapacityUnits). Requested ReadCapacityUnits: \(given.readCapacityUnits). Current WriteCapacityUnits provisioned for index \(name): \(throughput.writeCapacityUnits). Requested WriteCapacityUnits: \(given.writeCapacityUnits). Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
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
