import DynamoAPI
import DynamoClient

/// The objects of one page of a fetch, and where to continue.
public struct FetchResult<Result: ManagedObject> {
    /// The objects, in the request's order.
    public var objects: [Result]
    /// Where the next page starts (set it as the request's ``FetchRequest/cursor``), or `nil`
    /// when the fetch read everything that matches.
    public var cursor: FetchCursor?
}

// Fetching: the planned read, then the context's unsaved changes merged in memory.
extension ObjectContext {
    /// The objects matching a request, registered in this context (one object per identity:
    /// an object already registered is returned with its unsaved changes kept).
    ///
    /// ```swift
    /// let request = try FetchRequest<Checkin>(in: store.model, predicate: FetchPredicate("location == %@", home.objectID),
    ///                                         sortBy: [.ascending("at")])
    /// for checkin in try await context.fetch(request) { print(checkin.at) }
    /// ```
    ///
    /// - Parameter request: the request (its ``FetchRequest/fetchLimit`` caps the results).
    /// - Returns: the objects; with ``FetchRequest/includesPendingChanges``, unsaved inserts and
    ///   changes that match are included and unsaved deletes left out.
    /// - Throws: ``FetchPredicateError`` for a cursor that does not fit the request; DynamoDB's and
    ///   the client's errors.
    public func fetch<Result>(_ request: FetchRequest<Result>) async throws -> [Result] {
        try await fetchPage(request).objects
    }

    /// One page of a fetch: up to ``FetchRequest/fetchLimit`` objects from the request's
    /// ``FetchRequest/cursor`` on, and the cursor of the next page.
    ///
    /// Unsaved inserts are merged into the first page only (a page with a cursor continues the
    /// store's order); unsaved changes and deletes apply to every page.
    ///
    /// - Parameter request: the request.
    /// - Returns: the objects and the next cursor.
    /// - Throws: as ``fetch(_:)``.
    public func fetchPage<Result>(_ request: FetchRequest<Result>) async throws -> FetchResult<Result> {
        var request = request
        request.resultType = .objects
        let (items, cursor) = try await matchingItems(request)
        var objects: [ManagedObject] = []
        for entry in items {
            if let object = entry.object {
                objects.append(object)
            } else if request.returnsObjectsAsFaults {
                objects.append(registerFault(for: try identity(of: entry.item, entity: request.entity)))
            } else {
                objects.append(try registerFetched(item: entry.item, entity: request.entity))
            }
        }
        try await prefetch(request, from: items.map(\.item))
        return FetchResult(objects: objects.compactMap { $0 as? Result }, cursor: cursor)
    }

    /// The identities of the objects matching a request (only keys are read).
    ///
    /// - Parameter request: the request.
    /// - Returns: the identities, in the request's order.
    /// - Throws: as ``fetch(_:)``.
    public func fetchObjectIDs<Result>(_ request: FetchRequest<Result>) async throws -> [ObjectID] {
        var request = request
        request.resultType = .objectIDs
        var ids: [ObjectID] = []
        for entry in try await matchingItems(request).items {
            ids.append(try entry.object?.objectID ?? identity(of: entry.item, entity: request.entity))
        }
        return ids
    }

    /// How many objects match a request: `Select=COUNT` over every page when nothing unsaved
    /// in this context could change the answer; otherwise the keys are read and merged with
    /// the unsaved changes.
    ///
    /// - Parameter request: the request (``FetchRequest/fetchLimit`` caps the count).
    /// - Returns: the count.
    /// - Throws: as ``fetch(_:)``.
    public func count<Result>(for request: FetchRequest<Result>) async throws -> Int {
        var request = request
        request.resultType = .count
        if offlineReads != nil || request.includesPendingChanges && !pendingObjects(of: request.entity).isEmpty {
            request.resultType = .objectIDs
            return try await matchingItems(request).items.count
        }
        let executor = try FetchExecutor(client: store.client, request: request, logger: store.logger)
        return try await executor.count(limit: request.fetchLimit)
    }

    /// The matching objects as dictionaries of property name → value (the request's
    /// ``FetchRequest/propertiesToFetch``, or every attribute), read from the store without
    /// registering objects; unsaved changes are not applied.
    ///
    /// Attribute values are the Swift values the model declares (`String`, `Int64`, `Date`…;
    /// `codable` attributes as their `AttributeValue`); a to-one relationship is the
    /// destination's ``ObjectID``, a to-many one an array of them.
    ///
    /// - Parameter request: the request.
    /// - Returns: one dictionary per object.
    /// - Throws: as ``fetch(_:)``; ``StoreError`` for a stored value that does not decode.
    public func fetchDictionaries<Result>(_ request: FetchRequest<Result>) async throws -> [[String: Any]] {
        var request = request
        request.resultType = .dictionaries
        request.includesPendingChanges = false
        let entity = request.entity
        let wanted = request.propertiesToFetch.map(Set.init)
        var rows: [[String: Any]] = []
        for entry in try await matchingItems(request).items {
            var row: [String: Any] = [:]
            for attribute in entity.attributes where wanted?.contains(attribute.name) ?? true {
                if let value = entry.item[attribute.storageName] {
                    row[attribute.name] = try StoredValueCodec.decode(value, for: attribute)
                }
            }
            for relationship in entity.relationships where wanted?.contains(relationship.name) ?? false {
                let ids = try destinationIDs(of: relationship, in: entity, item: entry.item)
                row[relationship.name] = relationship.isToMany ? ids as Any : ids.first as Any
            }
            rows.append(row)
        }
        return rows
    }

    // MARK: - Reading and merging

    /// One result before it becomes an object: the item read (or the current values of a
    /// registered object with unsaved changes), and that object.
    struct FetchedEntry {
        var item: Item
        var object: ManagedObject?
    }

    /// The unsaved objects of an entity: inserted, changed and deleted ones.
    func pendingObjects(of entity: EntityDescription) -> [ManagedObject] {
        (insertedObjects.union(updatedObjects).union(deletedObjects)).filter { $0.entity.name == entity.name }
    }

    /// Reads the request's items and merges the context's unsaved changes: a deleted object is
    /// left out, a changed one is tested (and sorted) by its current values, an inserted or
    /// changed one that now matches is added.
    func matchingItems<Result>(_ request: FetchRequest<Result>) async throws -> (items: [FetchedEntry], cursor: FetchCursor?) {
        let executor = try FetchExecutor(client: store.client, request: request, logger: store.logger)
        let pending = request.includesPendingChanges ? pendingObjects(of: request.entity) : []
        // Unsaved deletes and changes may drop read items: read that many more so the limit
        // is still met from the store.
        let limit = request.fetchLimit.map { $0 + pending.count }
        let page =
            if let offline = offlineReads {
                try await fetchThroughDevice(request, executor: executor, offline: offline, limit: limit)
            } else {
                try await executor.items(
                    limit: limit, pageSize: request.pageSize, after: request.cursor,
                    attributes: request.neededAttributes)
            }
        guard !pending.isEmpty else { return (page.items.map { FetchedEntry(item: $0) }, page.cursor) }
        let matches = try request.effectivePredicate.matcher()
        var entries: [FetchedEntry] = []
        var seen: Set<ObjectID> = []
        for item in page.items {
            let id = try identity(of: item, entity: request.entity)
            seen.insert(id)
            guard let object = registered[id], object.hasChanges else {
                entries.append(FetchedEntry(item: item))
                continue
            }
            if object.isDeleted { continue }
            let current = currentItem(of: object)
            if matches(current) { entries.append(FetchedEntry(item: current, object: object)) }
        }
        for object in pending where !object.isDeleted && !seen.contains(object.objectID) {
            // Inserted objects join the first page only; later pages continue the store's order.
            if request.cursor != nil && object.isInserted { continue }
            let current = currentItem(of: object)
            if matches(current) { entries.append(FetchedEntry(item: current, object: object)) }
        }
        StorageSort.sort(&entries, by: request.sorts) { $0.item }
        if let limit = request.fetchLimit, entries.count > limit {
            entries.removeLast(entries.count - limit)
            // The page ends earlier than the store's: continue after its last stored item.
            let cursor = entries.last(where: { $0.object?.isInserted != true }).map { executor.cursor(after: $0.item) }
            return (entries, executor.plan.sortsInMemory || executor.plan.operation != .query && executor.plan.operation != .scan ? nil : cursor)
        }
        return (entries, page.cursor)
    }

    // MARK: - Prefetching

    /// The destinations a relationship attribute of an item names.
    func destinationIDs(of relationship: RelationshipDescription, in entity: EntityDescription, item: Item) throws -> [ObjectID] {
        let destination = try store.model.destination(of: relationship, in: entity)
        let keyName = try destination.hashKeyStorageName
        let keys: [AttributeValue] =
            switch item[relationship.storageName] {
            case .ss(let strings)?: strings.map { .s($0) }
            case .ns(let numbers)?: numbers.map { .n($0) }
            case .bs(let binaries)?: binaries.map { .b($0) }
            case let value?: [value]
            case nil: []
            }
        return keys.map { ObjectID(entityName: destination.name, key: [keyName: $0]) }
    }

    /// Reads the destinations of the request's prefetched relationships with BatchGetItem.
    private func prefetch<Result>(_ request: FetchRequest<Result>, from items: [Item]) async throws {
        guard !request.relationshipKeyPathsForPrefetching.isEmpty else { return }
        var faults: [ManagedObject] = []
        for name in request.relationshipKeyPathsForPrefetching {
            guard let relationship = request.entity.relationship(named: name) else { continue }
            for item in items {
                faults += try destinationIDs(of: relationship, in: request.entity, item: item).map { registerFault(for: $0) }
            }
        }
        try await fireFaults(faults)
    }
}
