import DynamoAPI
import DynamoClient

// Changes committed by other processes, read from DynamoDB Streams.
extension DynamoStore {
    /// Turns DynamoDB Streams on for every entity's table that has none (view type
    /// `KEYS_ONLY`: a merge reads the changed objects again, so keys are all it needs), and waits
    /// until the tables are active. Tables that already have a stream keep it.
    ///
    /// - Parameter pollInterval: how often to check the tables' status.
    /// - Throws: DynamoDB's errors.
    public func enableChangeStreams(pollInterval: Duration = .milliseconds(200)) async throws {
        for entity in model.entities {
            let table = try await client.describeTable(DescribeTableInput(tableName: entity.tableName)).table
            guard table?.streamSpecification?.streamEnabled != true else { continue }
            _ = try await client.updateTable(
                UpdateTableInput(
                    tableName: entity.tableName,
                    streamSpecification: StreamSpecification(streamEnabled: true, streamViewType: .keysOnly)))
            _ = try await client.waitUntilTableExists(entity.tableName, delay: pollInterval, maximumAttempts: 300)
        }
    }

    /// The changes every process commits to the store's tables, read from their DynamoDB
    /// Streams: saves of other processes (and this one's), other programs' writes, TTL
    /// deletions. Merge them into a context as ``changes()``' values are merged:
    ///
    /// ```swift
    /// try await store.enableChangeStreams()           // once, or tables created with streams
    /// let changes = try await store.changes(fromStream: .latest)
    /// Task { @MainActor in
    ///     for try await change in changes { try await mainContext.mergeChanges(from: change) }
    /// }
    /// ```
    ///
    /// Each value groups what one poll read: objects inserted, updated and deleted, identified by
    /// entity and key; the merge reads changed objects again, keeping a context's unsaved changes
    /// on top by its merge policy, and invalidates deleted ones. Changes of this process arrive
    /// here too (merging them again only reads the objects again). Works the same against
    /// LocalDynamo and DynamoDB, where records appear within about a second of the write.
    ///
    /// The stream ends with an error when a table has no stream (``StoreError/streamNotEnabled(_:)``)
    /// or a request fails after the client's retries; it stops when the consuming task stops
    /// iterating.
    ///
    /// - Parameters:
    ///   - start: ``StreamStart/latest`` (changes committed after this call returns) or
    ///     ``StreamStart/trimHorizon`` (everything the streams still hold).
    ///   - pollInterval: how long to wait after a poll that found nothing.
    /// - Returns: the changes, one value per poll that found some.
    /// - Throws: ``StoreError/streamNotEnabled(_:)``, DynamoDB's errors, when the streams cannot be
    ///   positioned.
    public func changes(
        fromStream start: StreamStart,
        pollInterval: Duration = .milliseconds(250)
    ) async throws -> AsyncThrowingStream<StoreChanges, any Error> {
        var follower = StreamFollower(client: client, tables: model.entities.map { ($0.tableName, $0.name) })
        try await follower.position(at: start)
        let (stream, continuation) = AsyncThrowingStream<StoreChanges, any Error>.makeStream()
        let task = Task { [follower] in
            var follower = follower
            do {
                while !Task.isCancelled {
                    let changes = try await follower.poll()
                    if changes.isEmpty {
                        try await Task.sleep(for: pollInterval)
                    } else {
                        continuation.yield(changes)
                    }
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
