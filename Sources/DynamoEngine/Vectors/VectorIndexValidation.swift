import DynamoAPI

/// CreateTable's `VectorIndexes`, UpdateTable's `VectorIndexUpdates` and a restore's
/// `VectorIndexOverride`, checked as the service checks them and turned into catalog entries.
enum VectorIndexValidation {
    /// The vector indexes a CreateTable (or a restore's override) declares, checked against the
    /// table being created: on-demand only, at most five, each valid on its own (see
    /// ``definition(_:definitions:keyAttributes:storageNumber:)``), names unique among all the
    /// table's indexes, and indexes over one attribute agreeing on dimensions.
    static func created(
        _ indexes: [VectorIndex], billingMode: BillingMode, definitions: [KeyAttribute],
        otherIndexNames: Set<String>
    ) throws(DynamoError) -> [VectorIndexDefinition] {
        guard !indexes.isEmpty else { return [] }
        if billingMode != .payPerRequest { throw EngineMessages.vectorIndexesOnlyOnDemand }
        if indexes.count > VectorIndexRules.maximumPerTable { throw EngineMessages.vectorIndexCountExceedsCreate }
        var names = otherIndexNames
        var created: [VectorIndexDefinition] = []
        for (position, index) in indexes.enumerated() {
            let definition = try definition(
                CreateVectorIndexAction(
                    indexName: index.indexName, vectorAttribute: index.vectorAttribute, searchSchema: index.searchSchema,
                    projection: index.projection, dimensions: index.dimensions, distanceFunction: index.distanceFunction),
                definitions: definitions, storageNumber: position + 1)
            guard names.insert(index.indexName).inserted else {
                throw EngineMessages.duplicateIndexName(indexName: index.indexName)
            }
            try checkDimensionsAgree(definition, with: created)
            created.append(definition)
        }
        return created
    }

    /// One index's own rules: dimensions within 1…4096, a valid projection, every search-schema
    /// attribute defined (once, at most one `HASH`), and the vector attribute not defined.
    static func definition(
        _ index: CreateVectorIndexAction, definitions: [KeyAttribute], storageNumber: Int
    ) throws(DynamoError) -> VectorIndexDefinition {
        if index.dimensions < 1 || index.dimensions > VectorIndexRules.maximumDimensions {
            throw EngineMessages.vectorDimensionsOutOfRange
        }
        let projection = try TableValidation.checkProjection(
            type: index.projection.projectionType, nonKeyAttributes: index.projection.nonKeyAttributes)
        var schema: [VectorIndexDefinition.SearchAttribute] = []
        for element in index.searchSchema ?? [] {
            guard let defined = definitions.first(where: { $0.name == element.attributeName }) else {
                throw EngineMessages.searchSchemaAttributeUndefined
            }
            if schema.contains(where: { $0.name == element.attributeName }) {
                throw EngineMessages.searchSchemaDuplicate(element.attributeName)
            }
            let isHash = element.searchSchemaElementType == .hash
            if isHash, schema.contains(where: \.isHash) { throw EngineMessages.searchSchemaTooManyHash }
            schema.append(.init(name: element.attributeName, type: defined.type, isHash: isHash))
        }
        let vectorAttribute = index.vectorAttribute.attributeName
        if definitions.contains(where: { $0.name == vectorAttribute }) {
            throw EngineMessages.vectorAttributeDefined(vectorAttribute)
        }
        return VectorIndexDefinition(
            name: index.indexName, vectorAttribute: vectorAttribute, dimensions: index.dimensions,
            distanceFunction: index.distanceFunction, searchSchema: schema, projectionType: projection,
            nonKeyAttributes: index.projection.nonKeyAttributes, storageNumber: storageNumber)
    }

    /// Indexes over one attribute must agree on its dimensions.
    static func checkDimensionsAgree(_ index: VectorIndexDefinition, with others: [VectorIndexDefinition]) throws(DynamoError) {
        if others.contains(where: { $0.vectorAttribute == index.vectorAttribute && $0.dimensions != index.dimensions }) {
            throw EngineMessages.vectorDimensionsDisagree(index.vectorAttribute)
        }
    }

    /// What an UpdateTable's `VectorIndexUpdates` changed.
    struct Changes {
        /// The index created (its entries built in the background over a table with items).
        var created: VectorIndexDefinition?
        /// The index deleted (dropped in the request's transaction, then held DELETING).
        var deleted: VectorIndexDefinition?
    }

    /// Applies UpdateTable's `VectorIndexUpdates` to `definition`: one Create or Delete per
    /// request, none while an index is being built (the limit is shared with global index
    /// creation and deletion).
    ///
    /// - Parameter requestDefinitions: the request's `AttributeDefinitions` (a search-schema
    ///   attribute must be defined in the same request, even when the table defines it already).
    static func apply(
        _ updates: [VectorIndexUpdate], requestDefinitions: [AttributeDefinition]?,
        changesGlobalIndexes: Bool, to definition: inout TableDefinition
    ) throws(DynamoError) -> Changes {
        for update in updates where (update.create == nil) == (update.delete == nil) {
            throw EngineMessages.vectorIndexUpdateOneAction
        }
        let globalBuilding = definition.globalIndexes.contains { $0.status == .creating || $0.status == .deleting }
        let vectorBuilding = definition.vectorIndexes.contains { $0.building == true }
        if updates.count > 1 || changesGlobalIndexes || globalBuilding || vectorBuilding {
            throw IndexUpdates.onlineIndexLimit
        }
        var changes = Changes()
        guard let update = updates.first else { return changes }
        if let delete = update.delete {
            guard let position = definition.vectorIndexes.firstIndex(where: { $0.name == delete.indexName }) else {
                throw EngineMessages.indexNotFoundForTable(name: delete.indexName, definitionName: definition.name)
            }
            changes.deleted = definition.vectorIndexes.remove(at: position)
            let used = Set(
                (definition.keyAttributes + definition.indexes.flatMap(\.keyAttributes)).map(\.name)
                    + definition.vectorIndexes.flatMap { $0.searchSchema.map(\.name) })
            definition.attributeDefinitions.removeAll { !used.contains($0.name) }
            return changes
        }
        guard let create = update.create else { return changes }
        if definition.index(named: create.indexName) != nil || definition.vectorIndex(named: create.indexName) != nil {
            throw EngineMessages.attemptingCreateIndexWhichAlready
        }
        if definition.billingMode != .payPerRequest { throw EngineMessages.vectorIndexesOnlyOnDemand }
        let given = (requestDefinitions ?? []).map {
            KeyAttribute(name: $0.attributeName, type: KeyScalarType(rawValue: $0.attributeType.rawValue) ?? .string)
        }
        let vectorAttribute = create.vectorAttribute.attributeName
        if let key = definition.keyAttributes.first(where: { $0.name == vectorAttribute }), !given.contains(where: { $0.name == vectorAttribute }) {
            throw EngineMessages.vectorAttributeRedefinesKey(
                vectorAttribute, type: key.type.rawValue, keyType: (key.name == definition.partitionKey.name ? KeyType.hash : KeyType.range).rawValue,
                dimensions: create.dimensions)
        }
        let number = (definition.vectorIndexes.map(\.storageNumber).max() ?? 0) + 1
        let index = try self.definition(create, definitions: given, storageNumber: number)
        try checkDimensionsAgree(index, with: definition.vectorIndexes)
        if definition.vectorIndexes.count >= VectorIndexRules.maximumPerTable {
            throw EngineMessages.vectorIndexCountExceedsUpdate
        }
        for attribute in index.searchSchema where !definition.attributeDefinitions.contains(where: { $0.name == attribute.name }) {
            definition.attributeDefinitions.append(KeyAttribute(name: attribute.name, type: attribute.type))
        }
        definition.vectorIndexes.append(index)
        changes.created = index
        return changes
    }
}
