import DynamoAPI
import DynamoExpressions

extension Database {
    /// SearchVectors: the `TopK` items of a vector index nearest `SearchVector`, exactly (every
    /// entry of the searched partition is scored; see ``VectorScorer`` for scores and ties).
    ///
    /// Checks in the service's order: the search vector's values, `TopK`'s range, the
    /// expressions (syntax, placeholders), the table, the index (a vector index that is ACTIVE),
    /// the vector's dimensions, the `SearchConditionExpression` against the search schema, the
    /// `ProjectionExpression` against the index's projection. The entries and the items they
    /// point at are read in one snapshot, so a search sees every write acknowledged before it.
    package func searchVectors(_ input: SearchVectorsInput) throws -> SearchVectorsOutput {
        var query: [Float] = []
        query.reserveCapacity(input.searchVector.count)
        for value in input.searchVector {
            guard case .n(let number) = value, let float = number.floatValue else {
                throw EngineMessages.searchVectorInvalidValues
            }
            query.append(float)
        }
        if input.topK > VectorIndexRules.maximumTopK { throw EngineMessages.topKOutOfRange(input.topK) }
        let compiled = try ExpressionCompiler.compile(ExpressionInput(input))

        let table = try self.table(named: input.tableName)
        guard let index = table.vectorIndex(named: input.indexName) else {
            throw EngineMessages.tableHasNoIndexNamed(indexName: input.indexName)
        }
        if index.isBackfilling(at: clock.now()) {
            throw EngineMessages.cannotSearchBackfilling(index.name)
        }
        if query.count != index.dimensions {
            throw EngineMessages.searchVectorDimension(query.count, index: index.dimensions)
        }
        let scope = try SearchScope(compiled.searchCondition, given: input.searchConditionExpression != nil, index: index)
        let projectedNames = index.projectedNames(table: table)
        if let projection = compiled.projection, let projectedNames {
            for path in projection.paths where !projectedNames.contains(path.attribute) {
                throw EngineMessages.searchProjectionOutsideIndex
            }
        }

        let scorer = VectorScorer(function: index.scoringFunction, query: query)
        let found = try read { connection in
            try connection.readInOneSnapshot { beforeStatement in
                // The stamp before the snapshot: a commit in between makes the cache stale.
                let stamp = vectorCaches.stamp(of: table)
                var cache = vectorCaches.current(table: table, index: index, stamp: stamp)
                if cache == nil {
                    try beforeStatement()
                    let loaded = try VectorIndexCache.load(VectorStore(table: table, index: index, connection: connection), stamp: stamp)
                    vectorCaches.keep(loaded, table: table, index: index)
                    cache = loaded
                }
                let best = cache!.search(scorer, scope: scope, k: input.topK, filterCount: index.inlineFilters.count)
                let items = ItemStore(table: table, connection: connection)
                return try best.compactMap { candidate -> (item: Item, size: Int, score: Float)? in
                    try beforeStatement()
                    guard let stored = try items.get(candidate.key) else { return nil }
                    return (try AttributeValue.decodeItem(bytes: stored.json), stored.size, candidate.score)
                }
            }
        }

        var results: [SearchResultItem] = []
        var responseBytes = 0
        var returnedBytes = 0
        var vectorsReturned = 0
        for (item, _, score) in found {
            let projected = index.project(item, table: table)
            var shown: Item
            if let projection = compiled.projection {
                shown = projection.apply(to: projected)
            } else {
                shown = projected
                shown[index.vectorAttribute] = nil
            }
            if shown[index.vectorAttribute] != nil { vectorsReturned += 1 }
            var withoutVector = projected
            withoutVector[index.vectorAttribute] = nil
            returnedBytes += ItemSize.of(withoutVector)
            responseBytes += ItemSize.of(shown) + 16
            if responseBytes > VectorIndexRules.maximumResponseBytes { throw EngineMessages.searchResponseTooLarge }
            results.append(SearchResultItem(item: shown, score: Double(score)))
        }
        var output = SearchVectorsOutput(searchResults: results)
        if let mode = input.returnConsumedCapacity, mode != .none {
            output.consumedCapacity = VectorCapacity(
                vectorSearchRequestBytes: Self.searchRequestBytes(
                    dimensions: index.dimensions, results: results.count, returnedBytes: returnedBytes,
                    vectorsReturned: vectorsReturned))
        }
        return output
    }

    /// `VectorSearchRequestBytes` of a search. The API reference says only that it is the
    /// search's capacity in bytes; the model is the one recorded against the service by
    /// ExtendDB's measurements (2026-08): 30.6875 bytes per dimension, 65 bytes per result plus
    /// the returned items' sizes without their vectors, 4 bytes per dimension for each returned
    /// vector, and never less than 1 KiB.
    static func searchRequestBytes(dimensions: Int, results: Int, returnedBytes: Int, vectorsReturned: Int) -> Double {
        let bytes =
            30.6875 * Double(dimensions) + 65 * Double(results) + Double(returnedBytes)
            + 4 * Double(dimensions) * Double(vectorsReturned)
        return max(1024, bytes)
    }
}

extension VectorIndexDefinition {
    /// The scoring function of the index's distance function.
    var scoringFunction: VectorScorer.Function {
        switch distanceFunction {
        case .dotProduct: .dotProduct
        case .euclidean: .euclidean
        default: .cosine
        }
    }
}

/// A `SearchConditionExpression` checked against a vector index's search schema: the equality
/// on the `HASH` element (the partition searched) and those on inline filters.
///
/// The grammar is a condition expression restricted as the developer guide says: top-level
/// attributes of the search schema compared with `=` to a value, joined with `AND`; any other
/// operator or function is an invalid comparator.
struct SearchScope {
    /// The encoded `HASH` value (`nil`: the index has no `HASH` element, every entry is searched).
    var partition: [UInt8]?
    /// Per inline filter (schema order), the encoded value it must equal, if the condition names it.
    var filters: [[UInt8]?]

    init(_ condition: Predicate?, given: Bool, index: VectorIndexDefinition) throws(DynamoError) {
        let hash = index.hashAttribute
        if hash != nil, !given { throw EngineMessages.searchConditionRequired }
        var equalities: [(String, AttributeValue)] = []
        if let condition { try Self.collect(condition, into: &equalities) }
        var values: [String: [UInt8]] = [:]
        for (name, value) in equalities {
            guard let attribute = index.searchSchema.first(where: { $0.name == name }) else {
                throw EngineMessages.searchConditionOutsideSchema(name)
            }
            guard values[name] == nil else { throw EngineMessages.searchConditionRepeated(name) }
            guard attribute.type.matches(value), let bytes = KeyEncoding.encode(value) else {
                throw EngineMessages.conditionTypeMismatch
            }
            values[name] = bytes
        }
        if let hash {
            guard let value = values[hash.name] else { throw EngineMessages.searchConditionMissingHash }
            partition = value
        }
        filters = index.inlineFilters.map { values[$0.name] }
    }

    /// The equalities of `predicate`, which must be `path = value` terms (either way round)
    /// joined with `AND`.
    private static func collect(_ predicate: Predicate, into equalities: inout [(String, AttributeValue)]) throws(DynamoError) {
        switch predicate {
        case .and(let left, let right):
            try collect(left, into: &equalities)
            try collect(right, into: &equalities)
        case .compare(.equal, .path(let path), .value(let value)), .compare(.equal, .value(let value), .path(let path)):
            guard path.elements.count == 1 else { throw EngineMessages.searchConditionOutsideSchema(path.description) }
            equalities.append((path.attribute, value))
        default:
            throw EngineMessages.searchConditionComparator
        }
    }

    /// Whether an entry's stored filters satisfy every inline-filter equality.
    func matches(filters stored: UnsafeRawBufferPointer, count: Int) -> Bool {
        guard filters.contains(where: { $0 != nil }) else { return true }
        let values = VectorEntry.decodeFilters(stored, count: count)
        for (wanted, value) in zip(filters, values) {
            guard let wanted else { continue }
            guard let value, value.elementsEqual(wanted) else { return false }
        }
        return true
    }
}
