import DynamoAPI
import DynamoClient

/// An object found by a similarity fetch, with its score under the index's distance function.
///
/// See ``ObjectContext/fetchNearest(_:index:to:k:where:)``.
public struct ScoredObject<Object: ManagedObject> {
    /// The object, registered in the context that fetched it.
    public var object: Object
    /// DynamoDB's score of the object's stored vector against the search vector, computed at
    /// `Float` precision: for ``EntityVectorIndex/Distance/cosine`` 1 − cos (0 identical … 2
    /// opposite), for ``EntityVectorIndex/Distance/euclidean`` the distance, for
    /// ``EntityVectorIndex/Distance/dotProduct`` the dot product.
    public var score: Double

    /// Pairs an object with its score.
    public init(object: Object, score: Double) {
        self.object = object
        self.score = score
    }
}

// Fetching by similarity: one SearchVectors request on an entity's vector index.
extension ObjectContext {
    /// DynamoDB's range of SearchVectors' `TopK`.
    static let nearestLimit = 1...100

    /// The `k` objects of an entity nearest a vector under one of its vector indexes, nearest
    /// first (smallest score for cosine and euclidean distance, largest dot product first), with
    /// their scores: one `SearchVectors` request.
    ///
    /// The search reads what the store holds: objects inserted in this context and not saved
    /// are not searched, and an object with unsaved changes is ranked by its saved vector. Found
    /// objects are registered with uniquing: an object already registered is returned as it is,
    /// its unsaved changes kept; one deleted in this context and not saved yet is left out (so
    /// fewer than `k` may come back). An index whose projection is
    /// ``IndexDescription/Projection/all`` gives loaded objects (the vector included); any
    /// other projection gives faults (`try await context.load(objects)`). With an
    /// ``OfflineStore`` the outbox's saves are ranked in (scored on the device), and when
    /// DynamoDB cannot be reached the cached rows are ranked on the device.
    ///
    /// ```swift
    /// let nearest = try await context.fetchNearest(Note.self, index: "byEmbedding", to: query, k: 5,
    ///                                              where: ["owner": "ana"])
    /// for found in nearest { print(found.object.text, found.score) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: the entity's model class.
    ///   - index: the name of one of the entity's ``EntityVectorIndex``es.
    ///   - vector: the search vector; it must have the index's dimensions.
    ///   - k: how many objects at most (1…100).
    ///   - equalities: property name → value, each property in the index's search schema: the
    ///     partition key's value (required when the index has a partition key) and inline
    ///     filters' values. A to-one relationship takes the destination object or its `ObjectID`.
    /// - Returns: at most `k` objects with their scores, in DynamoDB's order.
    /// - Throws: ``StoreError/invalidVectorSearch(_:)`` before sending for an index the entity
    ///   does not have, a missing partition-key equality, an equality outside the search schema,
    ///   a vector of the wrong length or with a non-finite component, `k` outside 1…100;
    ///   ``StoreError`` for an equality value of the wrong type; DynamoDB's and the client's
    ///   errors.
    public func fetchNearest<Result: ManagedObject>(
        _ type: Result.Type, index: String, to vector: [Float], k: Int, where equalities: [String: Any] = [:]
    ) async throws -> [ScoredObject<Result>] {
        try await fetchNearest(Result.self, entity: Result.entityName, index: index, to: vector, k: k, where: equalities)
    }

    /// The `k` objects of an entity, named, nearest a vector: as
    /// ``fetchNearest(_:index:to:k:where:)``, for generic code (`ManagedObject.self` as `type`).
    ///
    /// ```swift
    /// let nearest = try await context.fetchNearest(ManagedObject.self, entity: "Note", index: "byEmbedding", to: query, k: 5)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the class the results are (those of another class are left out).
    ///   - name: the entity's name in the model.
    ///   - index: the name of one of the entity's ``EntityVectorIndex``es.
    ///   - vector: the search vector; it must have the index's dimensions.
    ///   - k: how many objects at most (1…100).
    ///   - equalities: property name → value, as ``fetchNearest(_:index:to:k:where:)`` takes them.
    /// - Returns: at most `k` objects with their scores, in DynamoDB's order.
    /// - Throws: as ``fetchNearest(_:index:to:k:where:)``; ``StoreError/unknownEntity(_:)``.
    public func fetchNearest<Result: ManagedObject>(
        _ type: Result.Type, entity name: String, index: String, to vector: [Float], k: Int, where equalities: [String: Any] = [:]
    ) async throws -> [ScoredObject<Result>] {
        guard let entity = store.model.entity(named: name) else { throw StoreError.unknownEntity(name) }
        let (input, loaded) = try searchInput(entity: entity, index: index, vector: vector, k: k, equalities: equalities)
        var results: [(item: Item, score: Double, whole: Bool)]
        if let offline = offlineReads, let definition = entity.vectorIndex(named: index) {
            results = try await nearestThroughDevice(
                input, vector: vector, entity: entity, index: definition, offline: offline,
                equalities: try searchEqualities(equalities, of: entity, index: definition))
        } else {
            results =
                try await store.client.searchVectors(input).searchResults?.compactMap { result in
                    result.item.map { ($0, result.score ?? 0, false) }
                } ?? []
        }
        var found: [(object: ManagedObject, score: Double)] = []
        var faults: [ManagedObject] = []
        for (item, score, whole) in results {
            let loaded = loaded || whole
            let id = try identity(of: item, entity: entity)
            if let object = registered[id], object.hasChanges || object.isDeleted {
                if !object.isDeleted { found.append((object, score)) }
                continue
            }
            let object = loaded ? try registerFetched(item: item, entity: entity) : registerFault(for: id)
            if !loaded && store.modelVersioning != nil && entity.vectorIndex(named: index)?.projection == .all { faults.append(object) }
            found.append((object, score))
        }
        try await fireFaults(faults)
        return found.compactMap { entry in (entry.object as? Result).map { ScoredObject(object: $0, score: entry.score) } }
    }

    /// The `SearchVectors` request of a similarity fetch, and whether its results are whole
    /// objects (`ALL` projection: every modelled attribute is asked for, the vector included,
    /// which SearchVectors leaves out otherwise).
    ///
    /// With a ``ModelVersioning`` an older row's migration may need attributes the model no
    /// longer has, so its results are read whole with `BatchGetItem` instead.
    func searchInput(
        entity: EntityDescription, index name: String, vector: [Float], k: Int, equalities: [String: Any]
    ) throws -> (SearchVectorsInput, loaded: Bool) {
        guard let index = entity.vectorIndex(named: name) else {
            let others = store.model.entities.filter { $0.vectorIndex(named: name) != nil }.map(\.name)
            let owner = others.isEmpty ? "" : " (it is an index of \(others.joined(separator: ", ")))"
            throw StoreError.invalidVectorSearch("\(entity.name) has no vector index '\(name)'\(owner)")
        }
        let path = "\(entity.name) vector index \(name)"
        guard Self.nearestLimit.contains(k) else {
            throw StoreError.invalidVectorSearch("\(path): k is \(k); DynamoDB returns 1 to \(Self.nearestLimit.upperBound) results")
        }
        guard vector.count == index.dimensions else {
            throw StoreError.invalidVectorSearch("\(path): the vector has \(vector.count) components; the index has \(index.dimensions) dimensions")
        }
        if let position = vector.firstIndex(where: { !$0.isFinite }) {
            throw StoreError.invalidVectorSearch("\(path): vector component \(position) is \(vector[position])")
        }
        if let partitionKey = index.partitionKey, equalities[partitionKey] == nil {
            throw StoreError.invalidVectorSearch(
                "\(path): needs an equality on its partition key '\(partitionKey)' (where: [\"\(partitionKey)\": …])")
        }
        var condition: ConditionExpression?
        for (storageName, stored) in try searchEqualities(equalities, of: entity, index: index) {
            let equality = ConditionExpression.attribute(AttributePath.name(storageName)) == ConditionExpression.value(stored)
            condition = condition.map { $0 && equality } ?? equality
        }
        if let unknown = equalities.keys.sorted().first(where: { !index.searchSchemaProperties.contains($0) }) {
            let schema = index.searchSchemaProperties.isEmpty ? "none" : index.searchSchemaProperties.joined(separator: ", ")
            throw StoreError.invalidVectorSearch("\(path): '\(unknown)' is not in the index's search schema (\(schema))")
        }
        let loaded = index.projection == .all && store.modelVersioning == nil
        var projection: ProjectionExpression?
        if loaded {
            let names = entity.attributes.map(\.storageName) + entity.relationships.map(\.storageName)
            projection = ProjectionExpression(names.map { AttributePath.name($0) })
        }
        let rendered = try Expressions(condition: condition, projection: projection).rendered()
        var input = try SearchVectorsInput(tableName: entity.tableName, indexName: index.name, vector: vector, topK: k)
        input.searchConditionExpression = rendered.condition
        input.projectionExpression = rendered.projection
        input.expressionAttributeNames = rendered.names.isEmpty ? nil : rendered.names
        input.expressionAttributeValues = rendered.values.isEmpty ? nil : rendered.values
        return (input, loaded)
    }

    /// The storage names and DynamoDB values of a search's equalities, in the search schema's
    /// order.
    private func searchEqualities(
        _ equalities: [String: Any], of entity: EntityDescription, index: EntityVectorIndex
    ) throws -> [(String, AttributeValue)] {
        try index.searchSchemaProperties.compactMap { property in
            try equalities[property].map { try searchValue($0, for: property, of: entity) }
        }
    }

    /// The storage name and DynamoDB value of a search-schema equality.
    private func searchValue(_ value: Any, for property: String, of entity: EntityDescription) throws -> (String, AttributeValue) {
        if let attribute = entity.attribute(named: property) {
            guard let stored = try StoredValueCodec.encode(value, for: attribute, entity: entity.name) else {
                throw StoreError.invalidVectorSearch("\(entity.path(property)): an equality needs a value, not nil")
            }
            return (attribute.storageName, stored)
        }
        guard let relationship = entity.relationship(named: property) else { throw StoreError.unknownProperty(entity.path(property)) }
        let id: ObjectID
        if let object = value as? ManagedObject {
            id = object.objectID
        } else if let objectID = value as? ObjectID {
            id = objectID
        } else {
            throw StoreError.invalidValue(
                "\(entity.path(property)) is a relationship; give its destination or its ObjectID, not \(Swift.type(of: value))")
        }
        guard id.entityName == relationship.destination, id.key.count == 1, let key = id.key.values.first else {
            throw StoreError.invalidValue("\(entity.path(property)): \(id) is not a \(relationship.destination)")
        }
        return (relationship.storageName, key)
    }
}
