import DynamoAPI

extension DynamoClient {
    /// Reads any number of keys with `BatchGetItem`, 100 keys per request, resubmitting
    /// `UnprocessedKeys` with the retry configuration's backoff until every key is read.
    ///
    /// DynamoDB may return part of a batch unprocessed (throttling, the 16 MB response limit);
    /// that is not an error, and a caller that ignores `UnprocessedKeys` silently loses reads.
    /// This helper does not.
    ///
    /// ```swift
    /// let items = try await client.batchGetAll(["Notes": KeysAndAttributes(keys: keys)])
    /// let notes = items["Notes"] ?? []
    /// ```
    ///
    /// - Parameters:
    ///   - requestItems: Keys (and projection/consistency options) per table; any number of keys.
    ///   - maximumRounds: How many times a request's leftovers are resubmitted (default 10).
    /// - Returns: The items per table, in no particular order.
    /// - Throws: ``DynamoClientError/unprocessedAfterRetries(_:)`` when keys are still
    ///   unprocessed after the last round; what ``send(_:)`` throws.
    public func batchGetAll(
        _ requestItems: [String: KeysAndAttributes], maximumRounds: Int = 10
    ) async throws -> [String: [Item]] {
        var results: [String: [Item]] = [:]
        for chunk in Self.chunks(requestItems, size: 100) {
            var pending = chunk
            var round = 0
            while !pending.isEmpty {
                let output = try await batchGetItem(BatchGetItemInput(requestItems: pending))
                for (table, items) in output.responses ?? [:] { results[table, default: []] += items }
                pending = (output.unprocessedKeys ?? [:]).filter { !$0.value.keys.isEmpty }
                guard !pending.isEmpty else { break }
                round += 1
                guard round <= maximumRounds else {
                    throw DynamoClientError.unprocessedAfterRetries(
                        "\(pending.values.reduce(0) { $0 + $1.keys.count }) keys after \(maximumRounds) resubmissions")
                }
                try await retry.sleep(retry.backoff(attempt: round))
            }
        }
        return results
    }

    /// Writes any number of put and delete requests with `BatchWriteItem`, 25 per request,
    /// resubmitting `UnprocessedItems` with the retry configuration's backoff until all are done.
    ///
    /// ```swift
    /// try await client.batchWriteAll(["Notes": notes.map { WriteRequest(putRequest: PutRequest(item: $0)) }])
    /// ```
    ///
    /// - Parameters:
    ///   - requestItems: Write requests per table; any number of them.
    ///   - maximumRounds: How many times a request's leftovers are resubmitted (default 10).
    /// - Throws: ``DynamoClientError/unprocessedAfterRetries(_:)`` when writes are still
    ///   unprocessed after the last round; what ``send(_:)`` throws.
    public func batchWriteAll(_ requestItems: [String: [WriteRequest]], maximumRounds: Int = 10) async throws {
        for chunk in Self.chunks(requestItems, size: 25) {
            var pending = chunk
            var round = 0
            while !pending.isEmpty {
                let output = try await batchWriteItem(BatchWriteItemInput(requestItems: pending))
                pending = (output.unprocessedItems ?? [:]).filter { !$0.value.isEmpty }
                guard !pending.isEmpty else { break }
                round += 1
                guard round <= maximumRounds else {
                    throw DynamoClientError.unprocessedAfterRetries(
                        "\(pending.values.reduce(0) { $0 + $1.count }) writes after \(maximumRounds) resubmissions")
                }
                try await retry.sleep(retry.backoff(attempt: round))
            }
        }
    }

    /// Splits per-table key sets into requests of at most `size` keys in total.
    static func chunks(_ items: [String: KeysAndAttributes], size: Int) -> [[String: KeysAndAttributes]] {
        var result: [[String: KeysAndAttributes]] = []
        var current: [String: KeysAndAttributes] = [:]
        var count = 0
        for table in items.keys.sorted() {
            let request = items[table]!
            var start = 0
            while start < request.keys.count {
                let take = min(size - count, request.keys.count - start)
                var part = request
                part.keys = Array(request.keys[start..<(start + take)])
                current[table] = part
                count += take
                start += take
                if count == size {
                    result.append(current)
                    current = [:]
                    count = 0
                }
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Splits per-table write requests into requests of at most `size` writes in total.
    static func chunks(_ items: [String: [WriteRequest]], size: Int) -> [[String: [WriteRequest]]] {
        var result: [[String: [WriteRequest]]] = []
        var current: [String: [WriteRequest]] = [:]
        var count = 0
        for table in items.keys.sorted() {
            for request in items[table]! {
                current[table, default: []].append(request)
                count += 1
                if count == size {
                    result.append(current)
                    current = [:]
                    count = 0
                }
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
