import DynamoAPI

extension DynamoClient {
    /// Reads any number of keys with `BatchGetItem`, 100 keys per request, resubmitting
    /// `UnprocessedKeys` with the retry configuration's jittered exponential backoff, and
    /// reports the keys still unprocessed after the last round instead of failing.
    ///
    /// DynamoDB may return part of a batch unprocessed (throttling, the 16 MB response limit);
    /// that is not an error, and a caller that ignores `UnprocessedKeys` silently loses reads.
    ///
    /// ```swift
    /// let report = try await client.batchGet(["Notes": KeysAndAttributes(keys: keys)])
    /// let notes = report.items["Notes"] ?? []
    /// if !report.unprocessed.isEmpty { … }   // still throttled after every round
    /// ```
    ///
    /// - Parameters:
    ///   - requestItems: Keys (and projection/consistency options) per table; any number of keys.
    ///   - maximumRounds: How many times a request's leftovers are resubmitted (default 10).
    ///   - returnConsumedCapacity: Sent as `ReturnConsumedCapacity` with every request.
    /// - Returns: The items per table (in no particular order), the keys never read, the
    ///   consumed capacity of every request.
    /// - Throws: What ``send(_:)`` throws for a request that failed as a whole.
    public func batchGet(
        _ requestItems: [String: KeysAndAttributes], maximumRounds: Int = 10, returnConsumedCapacity: ReturnConsumedCapacity? = nil
    ) async throws -> BatchGetReport {
        var report = BatchGetReport()
        for chunk in Self.chunks(requestItems, size: 100) {
            var pending = chunk
            var round = 0
            while !pending.isEmpty {
                var input = BatchGetItemInput(requestItems: pending)
                input.returnConsumedCapacity = returnConsumedCapacity
                let output = try await batchGetItem(input)
                report.requests += 1
                report.consumedCapacity += output.consumedCapacity ?? []
                for (table, items) in output.responses ?? [:] { report.items[table, default: []] += items }
                pending = (output.unprocessedKeys ?? [:]).filter { !$0.value.keys.isEmpty }
                guard !pending.isEmpty else { break }
                round += 1
                guard round <= maximumRounds else {
                    for (table, keys) in pending {
                        if var existing = report.unprocessed[table] {
                            existing.keys += keys.keys
                            report.unprocessed[table] = existing
                        } else {
                            report.unprocessed[table] = keys
                        }
                    }
                    break
                }
                try await retry.sleep(retry.backoff(attempt: round))
            }
        }
        return report
    }

    /// Writes any number of put and delete requests with `BatchWriteItem`, in requests of at
    /// most 25 writes and 16 MB, resubmitting `UnprocessedItems` with the retry configuration's
    /// jittered exponential backoff, and reports the writes still unprocessed after the last
    /// round instead of failing.
    ///
    /// ```swift
    /// let report = try await client.batchWrite(["Notes": notes.map { WriteRequest(putRequest: PutRequest(item: $0)) }])
    /// precondition(report.unprocessed.isEmpty)
    /// ```
    ///
    /// - Parameters:
    ///   - requestItems: Write requests per table; any number of them.
    ///   - maximumRounds: How many times a request's leftovers are resubmitted (default 10).
    ///   - returnConsumedCapacity: Sent as `ReturnConsumedCapacity` with every request.
    /// - Returns: The writes never applied and the consumed capacity of every request.
    /// - Throws: What ``send(_:)`` throws for a request that failed as a whole.
    public func batchWrite(
        _ requestItems: [String: [WriteRequest]], maximumRounds: Int = 10, returnConsumedCapacity: ReturnConsumedCapacity? = nil
    ) async throws -> BatchWriteReport {
        var report = BatchWriteReport()
        for chunk in Self.chunks(requestItems, size: 25, maximumBytes: Self.batchWriteMaximumBytes) {
            var pending = chunk
            var round = 0
            while !pending.isEmpty {
                var input = BatchWriteItemInput(requestItems: pending)
                input.returnConsumedCapacity = returnConsumedCapacity
                let output = try await batchWriteItem(input)
                report.requests += 1
                report.consumedCapacity += output.consumedCapacity ?? []
                pending = (output.unprocessedItems ?? [:]).filter { !$0.value.isEmpty }
                guard !pending.isEmpty else { break }
                round += 1
                guard round <= maximumRounds else {
                    for (table, writes) in pending { report.unprocessed[table, default: []] += writes }
                    break
                }
                try await retry.sleep(retry.backoff(attempt: round))
            }
        }
        return report
    }

    /// ``batchGet(_:maximumRounds:returnConsumedCapacity:)``, failing when keys stay unprocessed.
    ///
    /// ```swift
    /// let items = try await client.batchGetAll(["Notes": KeysAndAttributes(keys: keys)])
    /// ```
    ///
    /// - Returns: The items per table, in no particular order.
    /// - Throws: ``DynamoClientError/unprocessedAfterRetries(_:)`` when keys are still
    ///   unprocessed after the last round; what ``send(_:)`` throws.
    public func batchGetAll(
        _ requestItems: [String: KeysAndAttributes], maximumRounds: Int = 10
    ) async throws -> [String: [Item]] {
        let report = try await batchGet(requestItems, maximumRounds: maximumRounds)
        guard report.unprocessed.isEmpty else {
            throw DynamoClientError.unprocessedAfterRetries(
                "\(report.unprocessed.values.reduce(0) { $0 + $1.keys.count }) keys after \(maximumRounds) resubmissions")
        }
        return report.items
    }

    /// ``batchWrite(_:maximumRounds:returnConsumedCapacity:)``, failing when writes stay unprocessed.
    ///
    /// - Throws: ``DynamoClientError/unprocessedAfterRetries(_:)`` when writes are still
    ///   unprocessed after the last round; what ``send(_:)`` throws.
    public func batchWriteAll(_ requestItems: [String: [WriteRequest]], maximumRounds: Int = 10) async throws {
        let report = try await batchWrite(requestItems, maximumRounds: maximumRounds)
        guard report.unprocessed.isEmpty else {
            throw DynamoClientError.unprocessedAfterRetries(
                "\(report.unprocessed.values.reduce(0) { $0 + $1.count }) writes after \(maximumRounds) resubmissions")
        }
    }
}

/// What ``DynamoClient/batchGet(_:maximumRounds:returnConsumedCapacity:)`` read and did not.
public struct BatchGetReport: Sendable {
    /// The items read, per table.
    public var items: [String: [Item]] = [:]
    /// The keys still unprocessed after the last round, per table (empty when all were read).
    public var unprocessed: [String: KeysAndAttributes] = [:]
    /// The capacity each request consumed (when `returnConsumedCapacity` asked for it).
    public var consumedCapacity: [ConsumedCapacity] = []
    /// How many `BatchGetItem` requests were sent.
    public var requests = 0
}

/// What ``DynamoClient/batchWrite(_:maximumRounds:returnConsumedCapacity:)`` did not write.
public struct BatchWriteReport: Sendable {
    /// The writes still unprocessed after the last round, per table (empty when all were applied).
    public var unprocessed: [String: [WriteRequest]] = [:]
    /// The capacity each request consumed (when `returnConsumedCapacity` asked for it).
    public var consumedCapacity: [ConsumedCapacity] = []
    /// How many `BatchWriteItem` requests were sent.
    public var requests = 0
}
