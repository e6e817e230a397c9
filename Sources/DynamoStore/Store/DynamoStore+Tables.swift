import DynamoAPI
import DynamoClient

extension DynamoStore {
    /// Creates the table of every entity, with its secondary and vector indexes, billed per request;
    /// tables that already exist are left as they are. Returns when every table is `ACTIVE`.
    ///
    /// Meant for development and tests; production tables are usually made by infrastructure
    /// code.
    ///
    /// - Parameter pollInterval: the pause between `DescribeTable` polls while a table is being
    ///   created (default 200 ms).
    /// - Throws: DynamoDB's errors other than `ResourceInUseException` (table exists).
    public func createTables(pollInterval: Duration = .milliseconds(200)) async throws {
        for entity in model.entities {
            do {
                _ = try await client.createTable(try Self.createTableInput(for: entity, in: model))
            } catch let error as DynamoError where error.code == .resourceInUse {
                // The table exists already.
            }
        }
        for entity in model.entities {
            try await client.waitUntilTableExists(entity.tableName, delay: pollInterval, maximumAttempts: 300)
            try await enableTimeToLive(entity)
        }
    }

    /// Turns DynamoDB's TTL on for an entity's expiry attribute, unless it is on already.
    func enableTimeToLive(_ entity: EntityDescription) async throws {
        guard let expiry = entity.expiryAttribute, let attribute = entity.attribute(named: expiry) else { return }
        let live = try await client.describeTimeToLive(DescribeTimeToLiveInput(tableName: entity.tableName)).timeToLiveDescription
        if live?.attributeName == attribute.storageName, live?.timeToLiveStatus == .enabled || live?.timeToLiveStatus == .enabling { return }
        _ = try await client.updateTimeToLive(
            UpdateTimeToLiveInput(
                tableName: entity.tableName, timeToLiveSpecification: TimeToLiveSpecification(enabled: true, attributeName: attribute.storageName)))
    }

    /// The `CreateTable` request for an entity: key schema, the attribute definitions of every
    /// table and index key and of every vector index's search schema, the indexes with their
    /// projections, the vector indexes, `PAY_PER_REQUEST`. An index key that is a to-one
    /// relationship is its storage name, typed as the destination's hash key.
    static func createTableInput(for entity: EntityDescription, in model: StoreModel) throws(StoreError) -> CreateTableInput {
        var definitions: [String: AttributeDefinition] = [:]
        func storageName(_ property: String) throws(StoreError) -> String {
            let key: (name: String, type: String)
            if let attribute = entity.attribute(named: property), let type = attribute.type.keyScalarType {
                key = (attribute.storageName, type)
            } else if let relationship = entity.relationship(named: property),
                let type = StoreModel.keyScalarType(of: relationship, in: model.entities)
            {
                key = (relationship.storageName, type)
            } else {
                throw .unknownProperty("\(entity.path(property)) (a key must be a string, number or data attribute, or a to-one relationship)")
            }
            definitions[key.name] = AttributeDefinition(attributeName: key.name, attributeType: ScalarAttributeType(rawValue: key.type))
            return key.name
        }
        func keySchema(hash: [String], range: [String]) throws(StoreError) -> [KeySchemaElement] {
            var schema: [KeySchemaElement] = []
            for name in hash { schema.append(KeySchemaElement(attributeName: try storageName(name), keyType: .hash)) }
            for name in range { schema.append(KeySchemaElement(attributeName: try storageName(name), keyType: .range)) }
            return schema
        }
        func projection(_ projection: IndexDescription.Projection) -> Projection {
            switch projection {
            case .all: return Projection(projectionType: .all)
            case .keysOnly: return Projection(projectionType: .keysOnly)
            case .include(let names):
                let stored = names.map { name in
                    entity.attribute(named: name)?.storageName ?? entity.relationship(named: name)?.storageName ?? name
                }
                return Projection(projectionType: .include, nonKeyAttributes: stored)
            }
        }
        let tableKey = try keySchema(hash: [entity.hashKey], range: entity.rangeKey.map { [$0] } ?? [])
        var globals: [GlobalSecondaryIndex] = []
        var locals: [LocalSecondaryIndex] = []
        for index in entity.indexes {
            let schema = try keySchema(hash: index.partitionKey, range: index.sortKey)
            switch index.kind {
            case .global:
                globals.append(GlobalSecondaryIndex(indexName: index.name, keySchema: schema, projection: projection(index.projection)))
            case .local:
                locals.append(LocalSecondaryIndex(indexName: index.name, keySchema: schema, projection: projection(index.projection)))
            }
        }
        var vectors: [VectorIndex] = []
        for index in entity.vectorIndexes {
            var schema: [SearchSchemaElement] = []
            if let partitionKey = index.partitionKey {
                schema.append(SearchSchemaElement(attributeName: try storageName(partitionKey), searchSchemaElementType: .hash))
            }
            for filter in index.filters {
                schema.append(SearchSchemaElement(attributeName: try storageName(filter), searchSchemaElementType: .inlineFilter))
            }
            guard let vector = entity.attribute(named: index.attribute) else { throw .unknownProperty(entity.path(index.attribute)) }
            vectors.append(
                VectorIndex(
                    indexName: index.name, vectorAttribute: VectorAttributeDefinition(attributeName: vector.storageName),
                    searchSchema: schema.isEmpty ? nil : schema, projection: projection(index.projection), dimensions: index.dimensions,
                    distanceFunction: VectorDistanceFunction(rawValue: index.distance.rawValue)))
        }
        return CreateTableInput(
            attributeDefinitions: definitions.keys.sorted().compactMap { definitions[$0] },
            tableName: entity.tableName, keySchema: tableKey,
            localSecondaryIndexes: locals.isEmpty ? nil : locals,
            globalSecondaryIndexes: globals.isEmpty ? nil : globals,
            billingMode: .payPerRequest, vectorIndexes: vectors.isEmpty ? nil : vectors)
    }
}
