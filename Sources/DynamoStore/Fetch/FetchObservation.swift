/// One value of an observed fetch: the current results and how they differ from the previous
/// value (the job of Core Data's fetched results controller, without a UI framework).
public struct FetchResultsUpdate<Result: ManagedObject> {
    /// The results now, in the request's order.
    public var objects: [Result]
    /// Objects in the results that were not in the previous value.
    public var inserted: [ObjectID]
    /// Objects of the previous value that are no longer in the results.
    public var removed: [ObjectID]
    /// Objects in both whose values a save changed.
    public var updated: [ObjectID]
    /// Objects in both whose position changed.
    public var moved: [ObjectID]
}

/// The results of a fetch request, again after every save (in any context of the store) that
/// changes them. The first value is the current result.
///
/// ```swift
/// let request = try FetchRequest<Checkin>(in: store.model, predicate: p, sortBy: [.descending("at")])
/// for try await update in context.observe(request) {
///     print(update.objects.count, "check-ins;", update.inserted.count, "new")
/// }
/// ```
///
/// Each value is fetched again from the store by the request's plan (with the context's unsaved
/// changes when ``FetchRequest/includesPendingChanges``), in the context's isolation domain,
/// when the loop asks for it; saves that do not touch the request's entity are skipped without
/// a request, and saves that leave the results as they were yield nothing.
public struct FetchResultsSequence<Result: ManagedObject>: AsyncSequence {
    /// One update.
    public typealias Element = FetchResultsUpdate<Result>

    let context: ObjectContext
    let request: FetchRequest<Result>

    /// Waits for the next change of the results.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let context: ObjectContext
        let request: FetchRequest<Result>
        var changes: AsyncStream<StoreChanges>.AsyncIterator
        var previous: [ObjectID]?

        /// The next update, or `nil` when the store's change stream ends.
        public mutating func next() async throws -> FetchResultsUpdate<Result>? {
            guard let previous else { return try await refetch(touched: []) }
            while let saved = await changes.next(isolation: #isolation) {
                let entity = request.entity.name
                let touched = saved.inserted.union(saved.updated).union(saved.deleted).filter { $0.entityName == entity }
                guard !touched.isEmpty else { continue }
                let update = try await refetch(touched: touched)
                if update.objects.map(\.objectID) != previous || !update.updated.isEmpty { return update }
            }
            return nil
        }

        private mutating func refetch(touched: Set<ObjectID>) async throws -> FetchResultsUpdate<Result> {
            let objects = try await context.fetch(request)
            let ids = objects.map(\.objectID)
            let before = previous ?? []
            let old = Set(before), new = Set(ids)
            let oldPositions = Dictionary(uniqueKeysWithValues: before.filter(new.contains).enumerated().map { ($1, $0) })
            let kept = ids.filter(old.contains)
            previous = ids
            return FetchResultsUpdate(
                objects: objects,
                inserted: ids.filter { !old.contains($0) },
                removed: before.filter { !new.contains($0) },
                updated: kept.filter(touched.contains),
                moved: kept.enumerated().filter { oldPositions[$0.element] != $0.offset }.map(\.element))
        }
    }

    /// Subscribes to the store's saves, then starts.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(context: context, request: request, changes: context.store.changes().makeAsyncIterator())
    }
}

extension ObjectContext {
    /// The request's results now and again after every save that changes them.
    ///
    /// - Parameter request: the request.
    /// - Returns: an asynchronous sequence of updates; the first is the current result.
    public func observe<Result>(_ request: FetchRequest<Result>) -> FetchResultsSequence<Result> {
        FetchResultsSequence(context: self, request: request)
    }
}
