import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    /// Creates a table: validates the request as DynamoDB does, stores the definition in the
    /// catalog and creates the SQLite table for its items, in one transaction.
    ///
    /// - Returns: the new table's definition (DynamoDB reports it as `CREATING`).
    package func createTable(_ input: CreateTableInput, now: Double) throws -> TableDefinition {
        var definition = try Self.validatedDefinition(input, now: now)
        try definition.applyWarmThroughput(input.warmThroughput, updating: false, now: now)
        let created = try insertTable(definition)
        transientStatuses.hold(table: created.name, status: .creating, now: now)
        return created
    }

    /// Stores a new table's definition (its storage id assigned here) and creates its SQLite
    /// tables, in one transaction; `ResourceInUseException` if the name is taken.
    func insertTable(_ definition: TableDefinition) throws -> TableDefinition {
        try write { state in
            if cachedDefinition(definition.name) != nil {
                throw EngineMessages.tableAlreadyExists(definition.name, code: .resourceInUse)
            }
            var stored = definition
            stored.storageID = try StorageIDs.allocate(state.connection)
            try state.connection.execute(ItemStore.createSQL(storageID: stored.storageID))
            for index in stored.indexes {
                try state.connection.execute(IndexStore.createSQL(table: stored, index: index))
            }
            for index in stored.vectorIndexes {
                try VectorStore(table: stored, index: index, connection: state.connection).create()
            }
            if let viewType = stored.streamViewType {
                stored.streamLabel = try StreamCatalog.startStream(
                    for: stored, viewType: viewType.rawValue, now: clock.now(),
                    connection: state.connection)
            }
            try saveDefinition(stored, connection: state.connection, isNew: true)
            state.statistics[stored.name] = .empty
            state.cacheAfterCommit(stored, named: stored.name)
            return stored
        }
    }

    /// Writes a definition into the catalog (inside the caller's transaction).
    func saveDefinition(_ definition: TableDefinition, connection: SQLiteConnection, isNew: Bool) throws {
        let encoder = JSONEncoder()
        let json = Array(try encoder.encode(definition))
        if isNew {
            try connection.statement("INSERT INTO catalog (name, storage_id, definition) VALUES (?, ?, ?)")
                .bind(.text(definition.name), .integer(definition.storageID), .blob(json)).run()
        } else {
            try connection.statement("UPDATE catalog SET definition = ? WHERE name = ?")
                .bind(.blob(json), .text(definition.name)).run()
        }
    }

    /// Builds a definition from a CreateTable request, applying DynamoDB's checks in its order.
    static func validatedDefinition(_ input: CreateTableInput, now: Double) throws(DynamoError) -> TableDefinition {
        try TableValidation.checkTableClass(input.tableClass)
        let billingMode = input.billingMode ?? .provisioned
        let throughput = input.provisionedThroughput.map { (read: $0.readCapacityUnits, write: $0.writeCapacityUnits) }
        try TableValidation.checkBilling(mode: input.billingMode, throughput: throughput)

        let definitions = (input.attributeDefinitions ?? []).map { definition in
            KeyAttribute(
                name: definition.attributeName,
                type: KeyScalarType(rawValue: definition.attributeType.rawValue) ?? .string)
        }
        let schema: [TableValidation.SchemaElement] = (input.keySchema ?? []).map {
            (name: $0.attributeName, keyType: $0.keyType)
        }
        guard !schema.isEmpty else {
            throw EngineMessages.keySchemaSpecified
        }
        // The model allows longer key schemas (for multi-attribute index keys); a table's own
        // is still a HASH key and at most one RANGE key.
        if schema.count > 2 {
            let rendered = schema.map { "KeySchemaElement(attributeName=\($0.name), keyType=\($0.keyType))" }
            throw EngineMessages.keySchemaTooLong(rendered: rendered)
        }
        let (partitionKey, sortKey) = try TableValidation.resolveKeySchema(schema, definitions: definitions)
        var definedNames = Set<String>()
        for attribute in definitions where !definedNames.insert(attribute.name).inserted {
            throw EngineMessages.duplicateAttributeNameAttributeDefinitions(name: attribute.name)
        }

        let localInputs = input.localSecondaryIndexes
        let globalInputs = input.globalSecondaryIndexes
        if localInputs == nil, globalInputs == nil, input.vectorIndexes == nil, schema.count != definitions.count {
            throw EngineMessages.numberAttributesKeySchemaDoesNot
        }

        var indexNames = Set<String>()
        var localIndexes: [IndexDefinition] = []
        if let localInputs {
            if localInputs.isEmpty { throw EngineMessages.listLocalSecondaryIndexesEmpty }
            if sortKey == nil {
                throw EngineMessages.tableKeySchemaDoesNotHave
            }
            for index in localInputs {
                let indexSchema = index.keySchema.map { (name: $0.attributeName, keyType: $0.keyType) }
                let (hash, range) = try TableValidation.resolveKeySchema(indexSchema, definitions: definitions)
                guard let range else {
                    throw EngineMessages.localIndexWithoutRangeKey(indexName: index.indexName)
                }
                if hash.name != partitionKey.name {
                    throw EngineMessages.localIndexHashKeyDiffers(
                        indexName: index.indexName, hashName: hash.name, partitionKeyName: partitionKey.name)
                }
                let projection = try TableValidation.checkProjection(
                    type: index.projection.projectionType, nonKeyAttributes: index.projection.nonKeyAttributes)
                guard indexNames.insert(index.indexName).inserted else {
                    throw EngineMessages.duplicateIndexName(indexName: index.indexName)
                }
                localIndexes.append(
                    IndexDefinition(
                        name: index.indexName, partitionKey: hash, sortKey: range, projectionType: projection,
                        nonKeyAttributes: index.projection.nonKeyAttributes, storageNumber: indexNames.count))
            }
            if localInputs.count > 5 {
                throw EngineMessages.numberLocalSecondaryIndexesExceedsPerTable
            }
        }

        var globalIndexes: [IndexDefinition] = []
        if let globalInputs {
            if globalInputs.isEmpty { throw EngineMessages.listGlobalSecondaryIndexesEmpty }
            for index in globalInputs {
                let indexSchema = index.keySchema.map { (name: $0.attributeName, keyType: $0.keyType) }
                let (partition, sort) = try TableValidation.resolveGlobalIndexKeySchema(indexSchema, definitions: definitions)
                let projection = try TableValidation.checkProjection(
                    type: index.projection.projectionType, nonKeyAttributes: index.projection.nonKeyAttributes)
                let indexThroughput = try TableValidation.indexThroughput(
                    index.provisionedThroughput, index: index.indexName, billingMode: billingMode)
                guard indexNames.insert(index.indexName).inserted else {
                    throw EngineMessages.duplicateIndexName(indexName: index.indexName)
                }
                var global = TableValidation.globalIndex(
                    name: index.indexName, partition: partition, sort: sort, projection: projection,
                    nonKeyAttributes: index.projection.nonKeyAttributes, throughput: indexThroughput,
                    status: .active, storageNumber: indexNames.count)
                try global.applyWarmThroughput(index.warmThroughput, now: now)
                globalIndexes.append(global)
            }
            if globalInputs.count > 20 {
                throw EngineMessages.globalSecondaryIndexCountExceedsPerTable
            }
        }

        let vectorIndexes = try VectorIndexValidation.created(
            input.vectorIndexes ?? [], billingMode: billingMode, definitions: definitions, otherIndexNames: indexNames)

        // Every attribute definition must be used by a key of the table or of an index (a
        // vector index's search schema included).
        let usedNames = Set(
            [partitionKey.name, sortKey?.name].compactMap { $0 }
                + (localIndexes + globalIndexes).flatMap { $0.keyAttributes.map(\.name) }
                + vectorIndexes.flatMap { $0.searchSchema.map(\.name) })
        if definitions.contains(where: { !usedNames.contains($0.name) }) {
            throw EngineMessages.numberAttributesKeySchemaDoesNot
        }

        var definition = TableDefinition(
            .init(
                name: input.tableName, storageID: 0, tableID: UUID().uuidString.lowercased(),
                partitionKey: partitionKey, sortKey: sortKey, attributeDefinitions: definitions,
                creationDateTime: now, billingMode: billingMode,
                billingModeLastUpdate: input.billingMode == nil ? nil : now,
                throughput: ThroughputSettings(
                    readCapacityUnits: throughput?.read ?? 0,
                    writeCapacityUnits: throughput?.write ?? 0),
                localIndexes: localIndexes, globalIndexes: globalIndexes))
        definition.vectorIndexes = vectorIndexes
        if let tags = input.tags {
            try definition.applyTags(tags.map { ($0.key, $0.value) })
        }
        if let stream = input.streamSpecification, stream.streamEnabled {
            guard let viewType = stream.streamViewType else {
                throw EngineMessages.tableBeingCreatedStreamEnabled
            }
            definition.streamViewType = viewType
            definition.streamLabel = StreamLabel.make(now: now)
        } else if let stream = input.streamSpecification, stream.streamViewType != nil {
            throw EngineMessages.tableBeingCreatedStreamDisabled
        }
        if let sse = input.sseSpecification { try TableValidation.checkEncryption(sse) }
        if let sse = input.sseSpecification, sse.enabled == true {
            definition.sseEnabled = true
            definition.sseType = sse.sseType ?? .kms
            definition.kmsMasterKeyID = sse.kmsMasterKeyId
        }
        definition.tableClass = input.tableClass
        definition.deletionProtectionEnabled = input.deletionProtectionEnabled ?? false
        if let onDemand = input.onDemandThroughput {
            try TableValidation.checkOnDemand(onDemand, clears: false)
            definition.onDemandMaxRead = onDemand.maxReadRequestUnits
            definition.onDemandMaxWrite = onDemand.maxWriteRequestUnits
        }
        return definition
    }
}

/// Stream labels look like ISO-8601 timestamps with milliseconds, as DynamoDB's do.
enum StreamLabel {
    static func make(now: Double) -> String {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        return String(style.format(Date(timeIntervalSince1970: now)).dropLast())
    }
}
