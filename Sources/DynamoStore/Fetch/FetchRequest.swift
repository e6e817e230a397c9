import DynamoAPI
import Foundation

/// What a fetch returns. The context's methods set it (``ObjectContext/fetch(_:)`` objects,
/// ``ObjectContext/fetchObjectIDs(_:)``, ``ObjectContext/count(for:)``,
/// ``ObjectContext/fetchDictionaries(_:)``); set it yourself to see its plan in ``FetchRequest/explain()``.
public enum FetchResultType: Sendable, Hashable {
    /// Managed objects, registered in the context (uniqued).
    case objects
    /// Object identities only (only the keys are read).
    case objectIDs
    /// The number of matching objects (`Select=COUNT`, every page summed).
    case count
    /// One dictionary per object: property name → value (``propertiesToFetch`` or every
    /// attribute), nothing registered in the context.
    case dictionaries
}

/// A description of objects to fetch: an entity, a predicate, a sort, and how many and in what
/// form — Core Data's `NSFetchRequest`, planned into the cheapest DynamoDB read.
///
/// The predicate and sort are checked against the model when the request is built; anything
/// DynamoDB cannot evaluate is refused there with the reason.
///
/// ```swift
/// var request = try FetchRequest<Checkin>(in: store.model,
///                                         predicate: FetchPredicate("location == %@ AND at >= %@", id, since),
///                                         sortBy: [.descending("at")])
/// request.fetchLimit = 20
/// print(request.explain())   // Scan on Checkin, filter #n0 = :v0 AND #n1 >= :v1, sorted in memory
/// let recent = try await context.fetch(request)
/// ```
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The fetched entity.
    public let entity: EntityDescription
    /// The predicate (`nil`: every object).
    public let predicate: FetchPredicate?
    /// The sort keys, most significant first.
    public let sortDescriptors: [FetchSort]
    /// The properties a dictionary fetch reads (a ProjectionExpression; keys are always read);
    /// `nil` reads all. Objects are always read whole, as Core Data does: an object's values
    /// are its row.
    public let propertiesToFetch: [String]?
    /// To-one and to-many relationships whose destinations are read along (BatchGetItem).
    public let relationshipKeyPathsForPrefetching: [String]
    /// The most objects wanted (`nil` or 0, as in Core Data: all). DynamoDB pages are read
    /// until this many matched, whatever `Limit` each page had; no page after the one that
    /// reaches it is read. Setting 0 stores `nil`.
    public var fetchLimit: Int? {
        didSet { if fetchLimit == 0 { fetchLimit = nil } }
    }
    /// Objects per batch of a lazily paged fetch (``ObjectContext/fetchBatches(_:)``), also the
    /// `Limit` of each DynamoDB page; `nil` (or 0) lets DynamoDB fill 1 MB pages.
    public var fetchBatchSize: Int?
    /// What the fetch returns.
    public var resultType: FetchResultType = .objects
    /// Whether unsaved inserts and changes of the context that match are included and unsaved
    /// deletes excluded (Core Data's default: `true`).
    public var includesPendingChanges = true
    /// Whether objects whose expiry time (the entity's ``EntityDescription/expiryAttribute``)
    /// has passed are included (default `false`): DynamoDB deletes expired items only within
    /// days, so a fetch adds `expiry > now OR attribute_not_exists(expiry)` to its filter.
    public var includesExpiredObjects = false
    /// Whether objects come back as faults (only keys are read; each fires when touched, or in
    /// batches). Default `false`: objects come back filled from the same read.
    public var returnsObjectsAsFaults = false
    /// Strongly consistent reads. DynamoDB does not offer them on global secondary indexes,
    /// so the planner then does not use those.
    public var consistentRead = false
    /// Where to continue a previous fetch (its ``FetchResult/cursor``).
    public var cursor: FetchCursor?

    let model: StoreModel?
    let resolved: StoragePredicate
    let sorts: [StorageSort]
    let projection: [String]?

    /// Builds a request for a model class's entity.
    ///
    /// - Parameters:
    ///   - model: the store's model (it must contain `Result`'s entity).
    ///   - predicate: which objects (`nil`: all).
    ///   - sortBy: the sort keys.
    ///   - propertiesToFetch: the properties to read (`nil`: all).
    ///   - prefetching: relationships whose destinations are read along.
    /// - Throws: ``FetchPredicateError`` as ``init(_:in:predicate:sortBy:propertiesToFetch:prefetching:)``.
    public init(
        in model: StoreModel, predicate: FetchPredicate? = nil, sortBy: [FetchSort] = [],
        propertiesToFetch: [String]? = nil, prefetching: [String] = []
    ) throws(FetchPredicateError) {
        guard let entity = model.entity(named: Result.entityName) else {
            throw FetchPredicateError("the model has no entity named \(Result.entityName)")
        }
        try self.init(
            entity: entity, model: model, predicate: predicate, sortBy: sortBy,
            propertiesToFetch: propertiesToFetch, prefetching: prefetching)
    }

    /// Builds a request for an entity; without a model, key paths through relationships cannot
    /// be resolved.
    ///
    /// - Parameters:
    ///   - entity: the entity to fetch.
    ///   - model: the model the entity belongs to, if known.
    ///   - predicate: which objects (`nil`: all).
    ///   - sortBy: the sort keys.
    ///   - propertiesToFetch: the properties to read (`nil`: all).
    ///   - prefetching: relationships whose destinations are read along.
    /// - Throws: ``FetchPredicateError`` as ``init(_:in:predicate:sortBy:propertiesToFetch:prefetching:)``.
    public init(
        entity: EntityDescription, model: StoreModel? = nil, predicate: FetchPredicate? = nil,
        sortBy: [FetchSort] = [], propertiesToFetch: [String]? = nil, prefetching: [String] = []
    ) throws(FetchPredicateError) {
        self.entity = entity
        self.model = model
        self.predicate = predicate
        sortDescriptors = sortBy
        self.propertiesToFetch = propertiesToFetch
        relationshipKeyPathsForPrefetching = prefetching
        if let predicate {
            let variables = predicate.variableNames
            guard variables.isEmpty else {
                throw FetchPredicateError(
                    "the predicate has unsubstituted variables: \(variables.map { "$" + $0 }.joined(separator: ", ")); call substituting(_:) first")
            }
            resolved = try PredicateResolver(entity: entity, model: model).resolve(predicate)
            // DynamoDB's own checks (e.g. the 4 KB expression size) now, not at the first page.
            _ = try resolved.compiled()
        } else {
            resolved = .constant(true)
        }
        var sorts: [StorageSort] = []
        for sort in sortBy {
            guard let attribute = entity.attribute(named: sort.key) else {
                throw FetchPredicateError(
                    entity.relationship(named: sort.key) != nil
                        ? "cannot sort by the relationship \(entity.name).\(sort.key)"
                        : "cannot sort by \(sort.key): \(entity.name) has no attribute named \(sort.key)")
            }
            if attribute.type == .codable {
                throw FetchPredicateError("cannot sort by \(entity.name).\(sort.key): it is stored as a map, which has no order")
            }
            sorts.append(StorageSort(attribute: attribute.storageName, ascending: sort.ascending))
        }
        self.sorts = sorts
        if let propertiesToFetch {
            var names: [String] = []
            for property in propertiesToFetch {
                if let attribute = entity.attribute(named: property) {
                    names.append(attribute.storageName)
                } else if let relationship = entity.relationship(named: property) {
                    names.append(relationship.storageName)
                } else {
                    throw FetchPredicateError("cannot fetch \(property): \(entity.name) has no property named \(property)")
                }
            }
            projection = names
        } else {
            projection = nil
        }
        for path in prefetching {
            guard entity.relationship(named: path) != nil else {
                throw FetchPredicateError("cannot prefetch \(path): \(entity.name) has no relationship named \(path)")
            }
        }
    }

    /// DynamoDB's `Limit` per page: the batch size when positive (0, as in Core Data, means no
    /// batching), else `nil` for 1 MB pages.
    var pageSize: Int? {
        fetchBatchSize.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The storage names the result needs (`nil`: everything).
    var neededAttributes: Set<String>? {
        let planner = FetchPlanner(entity: entity)
        let keys = Set(planner.tableKeys)
        switch resultType {
        case .count, .objectIDs: return keys
        case .objects where returnsObjectsAsFaults: return keys
        // A registered object's snapshot is its whole row: objects are always read whole.
        case .objects: return nil
        case .dictionaries:
            guard let projection else { return nil }
            return keys.union(projection).union(sorts.map(\.attribute))
                .union(entity.relationships.filter { relationshipKeyPathsForPrefetching.contains($0.name) }.map(\.storageName))
        }
    }

    /// How the fetch will read DynamoDB: operation, index, key condition, filters, sort.
    ///
    /// ```swift
    /// let plan = request.explain()
    /// #expect(plan.operation == .query && plan.indexName == "byCity")
    /// ```
    public func explain() -> FetchPlan {
        FetchPlanner(entity: entity, allowsGlobalIndexes: !consistentRead)
            .plan(effectivePredicate, sorts: resultType == .count ? [] : sorts, neededAttributes: neededAttributes)
    }

    /// The resolved predicate and, for an entity with an expiry attribute, "not expired now".
    /// Tombstones (``EntityDescription/tombstoneLifetime``) are always left out.
    var effectivePredicate: StoragePredicate {
        let live: StoragePredicate = entity.tombstoneLifetime == nil ? resolved : .all([resolved, .notExists(EntityDescription.tombstoneAttribute)])
        guard !includesExpiredObjects, let expiry = entity.expiryAttribute.flatMap(entity.attribute(named:)) else { return live }
        let now = AttributeValue.n(DynamoNumber(Int(Date().timeIntervalSince1970)))
        return .all([live, .or([.notExists(expiry.storageName), .compare(expiry.storageName, .greater, now)])])
    }
}

extension FetchRequest where Result == ManagedObject {
    /// Builds a request for an entity of a model, by name (generic code: `Result` is
    /// ``ManagedObject``).
    ///
    /// - Parameters:
    ///   - entityName: the entity to fetch.
    ///   - model: the store's model (resolves relationships' destinations).
    ///   - predicate: which objects (`nil`: all).
    ///   - sortBy: the sort keys.
    ///   - propertiesToFetch: the properties to read (`nil`: all).
    ///   - prefetching: relationships whose destinations are read along.
    /// - Throws: ``FetchPredicateError`` for an unknown entity or property, a value of the wrong
    ///   type, an unsubstituted variable, or a construct DynamoDB cannot evaluate.
    public init(
        _ entityName: String, in model: StoreModel, predicate: FetchPredicate? = nil, sortBy: [FetchSort] = [],
        propertiesToFetch: [String]? = nil, prefetching: [String] = []
    ) throws(FetchPredicateError) {
        guard let entity = model.entity(named: entityName) else {
            throw FetchPredicateError("the model has no entity named \(entityName)")
        }
        try self.init(
            entity: entity, model: model, predicate: predicate, sortBy: sortBy,
            propertiesToFetch: propertiesToFetch, prefetching: prefetching)
    }
}
