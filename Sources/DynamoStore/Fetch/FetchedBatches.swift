/// The results of a fetch in batches of ``FetchRequest/fetchBatchSize`` objects, each read when
/// the loop asks for it (one DynamoDB page per batch, continued from the previous batch's
/// cursor), so a large result never has to be in memory at once.
///
/// ```swift
/// var request = try FetchRequest<Checkin>(in: store.model, predicate: p)
/// request.fetchBatchSize = 50
/// for try await batch in context.fetchBatches(request) {
///     for checkin in batch { print(checkin.comment ?? "") }
/// }
/// ```
///
/// A request sorted in memory (or read by key) has no order DynamoDB can continue: its results
/// are read at the first batch and handed out in batches.
public struct FetchedBatches<Result: ManagedObject>: AsyncSequence {
    /// A batch of objects.
    public typealias Element = [Result]

    let context: ObjectContext
    let request: FetchRequest<Result>

    /// Reads the next batch when asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let context: ObjectContext
        var request: FetchRequest<Result>
        var buffered: [Result]?
        var delivered = 0
        var finished = false

        /// The next batch, or `nil` after the last one.
        public mutating func next() async throws -> [Result]? {
            let size = request.pageSize ?? 100
            let remaining = request.fetchLimit.map { $0 - delivered } ?? Int.max
            guard !finished, remaining > 0 else { return nil }
            let plan = request.explain()
            if plan.sortsInMemory || plan.operation != .query && plan.operation != .scan {
                if buffered == nil { buffered = try await context.fetch(request) }
                let batch = Array(buffered!.prefix(size))
                buffered!.removeFirst(batch.count)
                delivered += batch.count
                if buffered!.isEmpty { finished = true }
                return batch.isEmpty ? nil : batch
            }
            var page = request
            page.fetchLimit = Swift.min(size, remaining)
            let result = try await context.fetchPage(page)
            request.cursor = result.cursor
            delivered += result.objects.count
            finished = result.cursor == nil
            return result.objects.isEmpty && finished ? nil : result.objects
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(context: context, request: request)
    }
}

extension ObjectContext {
    /// The request's results, read lazily in batches of ``FetchRequest/fetchBatchSize``
    /// (default 100) objects; ``FetchRequest/fetchLimit`` caps the total.
    ///
    /// - Parameter request: the request.
    /// - Returns: an asynchronous sequence of batches.
    public func fetchBatches<Result>(_ request: FetchRequest<Result>) -> FetchedBatches<Result> {
        FetchedBatches(context: self, request: request)
    }
}
