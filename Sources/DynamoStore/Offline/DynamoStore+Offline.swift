import DynamoAPI
import DynamoClient
import Logging
import Synchronization

extension DynamoStore {
    /// Stores the outbox's saves in DynamoDB, oldest first, each as the conditional actions
    /// its online save would have been, sent as `TransactWriteItems` (one action too, for its
    /// request token), until the outbox is empty or DynamoDB cannot be reached.
    ///
    /// Each entry is planned again in a private context from what its objects read and what
    /// the save made of them, under the merge policy of the context that saved it: a conflict
    /// (the row changed since the device read it) is resolved as an online save resolves it.
    /// Its transactions carry `ClientRequestToken`s kept with the entry, and a write whose
    /// condition meets the very row it makes counts as stored, so a replay after a lost answer
    /// (or a killed app) stores each save once. An entry DynamoDB refuses (validation, a missing
    /// table), or a conflict under ``MergePolicy/error``, leaves the outbox for
    /// ``OfflineStore/failedEntries()``; the queue goes on. Each entry's ``OutboxOutcome`` goes to
    /// ``OfflineStore/outcomes()`` subscribers and to a
    /// ``Foundation/Notification/Name/dynamoStoreOutboxDidReplay`` notification, and its objects
    /// to ``changes()`` (so contexts that merge store changes read them again).
    ///
    /// One replay runs at a time; a call while one runs returns at once with no outcomes.
    ///
    /// ```swift
    /// for outcome in try await store.replayOutbox() where outcome.failure != nil { show(outcome) }
    /// ```
    ///
    /// - Returns: the outcomes of the entries replayed by this call, in save order.
    /// - Throws: errors of the device's file; `CancellationError`. DynamoDB being unreachable is
    ///   not an error: the call returns, the rest of the outbox waits.
    @discardableResult
    public func replayOutbox() async throws -> [OutboxOutcome] {
        guard let offline else { return [] }
        let started = offline.replaying.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard started else { return [] }
        defer { offline.replaying.withLock { $0 = false } }
        var outcomes: [OutboxOutcome] = []
        while let entry = try offline.firstEntry() {
            try Task.checkCancellation()
            guard let outcome = try await replay(entry, offline: offline) else { break }
            outcomes.append(outcome)
            offline.announce(outcome)
        }
        return outcomes
    }

    /// Replays one entry; `nil` when it stays in the outbox (DynamoDB unreachable, or a
    /// transient error it may meet again).
    private func replay(_ entry: OfflineStore.StoredEntry, offline: OfflineStore) async throws -> OutboxOutcome? {
        let tables = Dictionary(model.entities.map { ($0.name, $0.tableName) }, uniquingKeysWith: { first, _ in first })
        let context = ObjectContext(store: self)
        let state = OutboxReplayState(token: entry.token, earlierConflicts: try offline.conflicts(of: entry)) { rows in
            try offline.recordConflicts(of: entry, rows)
        }
        context.replay = state
        context.mergePolicy = entry.policy
        context.undoManager = nil
        var ids: [ObjectID] = []
        do {
            let rows = try context.rebuild(entry.records)
            ids = rows.map(\.object.objectID)
            try await context.save()
            let (resolutions, results) = context.outcome(
                of: rows, conflicts: state.conflicts.merging(state.resolvedAgainst) { _, last in last })
            try offline.finish(entry, tables: tables, results: results, failure: nil)
            logger.debug("outbox entry replayed", metadata: ["sequence": .stringConvertible(entry.sequence)])
            return OutboxOutcome(sequence: entry.sequence, objects: resolutions, failure: nil)
        } catch {
            switch Self.replayFailure(error) {
            case .unreachable:
                return nil
            case .transient where entry.attempts + 1 < offline.maximumReplayAttempts:
                try offline.countAttempt(of: entry)
                return nil
            case .transient, .permanent:
                let failure = "\(error)"
                // The rows its conflicts showed are what DynamoDB holds now.
                var known: [String: Item?] = [:]
                for record in entry.records {
                    guard let key = try? ItemText.decode(record.key) else { continue }
                    if let row = state.met[ObjectID(entityName: record.entity, key: key)] {
                        known[OfflineStore.recordKey(record.entity, record.key)] = .some(row)
                    }
                }
                try offline.finish(entry, tables: tables, results: known, failure: failure)
                logger.debug("outbox entry failed", metadata: ["sequence": .stringConvertible(entry.sequence)])
                publish(StoreChanges(updated: Set(ids)))
                return OutboxOutcome(
                    sequence: entry.sequence, objects: Dictionary(ids.map { ($0, .failed) }, uniquingKeysWith: { first, _ in first }),
                    failure: failure)
            }
        }
    }

    private enum ReplayFailure { case unreachable, transient, permanent }

    private static func replayFailure(_ error: any Error) -> ReplayFailure {
        switch error {
        case is TransportError, is CancellationError: .unreachable
        case let partial as PartialSaveError: replayFailure(partial.underlying)
        case let dynamo as DynamoError where dynamo.code.isRetryable || dynamo.code == .transactionConflict: .transient
        case let dynamo as DynamoError where dynamo.code == .transactionCanceled:
            // Cancelled only because other transactions held its items (after the store's own
            // retries): it may succeed later.
            dynamo.cancellationReasons?.contains { $0.code == "TransactionConflict" } == true ? .transient : .permanent
        default: .permanent
        }
    }

    /// Replays the outbox now and then every `interval` until the calling task is cancelled
    /// (start it when the app starts; call ``replayOutbox()`` too when the network comes back).
    ///
    /// - Parameter interval: the pause between replays.
    public func keepReplayingOutbox(every interval: Duration = .seconds(30)) async {
        while !Task.isCancelled {
            _ = try? await replayOutbox()
            try? await Task.sleep(for: interval)
        }
    }

    /// Keeps the cache current from DynamoDB Streams, where the credentials may read them:
    /// every change the stream follower reports (``changes(fromStream:pollInterval:)``) has its
    /// rows read again with ``refreshCache(_:)``, until the stream ends or the calling task is
    /// cancelled. Deletions by other apps and TTL show as rows gone.
    ///
    /// ```swift
    /// try await store.enableChangeStreams()
    /// let changes = try await store.changes(fromStream: .latest)
    /// Task { try await store.refreshCache(following: changes) }
    /// ```
    ///
    /// - Parameter changes: a stream from ``changes(fromStream:pollInterval:)``.
    /// - Throws: the stream's errors and ``refreshCache(_:)``'s.
    public func refreshCache(following changes: AsyncThrowingStream<StoreChanges, any Error>) async throws {
        for try await change in changes {
            try await refreshCache(change.inserted.union(change.updated).union(change.deleted))
        }
    }

    /// Brings cached rows up to date from DynamoDB: the rows of `objectIDs` (every cached row
    /// when `nil`), read with `BatchGetItem`; a row found gone leaves the cache. Rows with a
    /// pending save keep showing the save's image. The objects whose rows changed go to
    /// ``changes()``.
    ///
    /// Feed it the changes of ``changes(fromStream:)`` where the credentials allow reading the
    /// streams, or call it when the app comes to the foreground.
    ///
    /// - Parameter objectIDs: the objects to refresh, or `nil` for every cached row.
    /// - Returns: the objects whose rows changed: updated (a new row) and deleted (gone).
    /// - Throws: DynamoDB's and the transport's errors; errors of the device's file.
    @discardableResult
    public func refreshCache(_ objectIDs: Set<ObjectID>? = nil) async throws -> StoreChanges {
        guard let offline else { return StoreChanges() }
        let byTable = Dictionary(grouping: model.entities, by: \.tableName)
        var keys: [(table: String, key: Item)] = []
        if let objectIDs {
            keys = objectIDs.compactMap { id in model.entity(named: id.entityName).map { ($0.tableName, id.key) } }
        } else {
            keys = try offline.cachedKeys()
        }
        var changes = StoreChanges()
        for (table, tableKeys) in Dictionary(grouping: keys, by: \.table) {
            guard let entity = byTable[table]?.first else { continue }
            let keyNames = entity.keyAttributes.map(\.storageName)
            var found: [Item: Item] = [:]
            let wanted = tableKeys.map(\.key)
            for start in stride(from: 0, to: wanted.count, by: 100) {
                let slice = Array(wanted[start..<min(start + 100, wanted.count)])
                let items = try await client.batchGetAll([table: KeysAndAttributes(keys: slice, consistentRead: true)])[table] ?? []
                // A tombstone is a deletion.
                for item in items where !entity.isTombstone(item) { found[item.filter { keyNames.contains($0.key) }] = item }
            }
            let gone = wanted.filter { found[$0] == nil }
            let before = try offline.cachedRows(table: table, keys: wanted)
            try offline.remember(table: table, items: Array(found.values), keyNames: keyNames, gone: gone)
            for key in wanted {
                let id = ObjectID(entityName: entity.name, key: key)
                let was = before[key] ?? nil
                if let now = found[key] {
                    if was != now { changes.updated.insert(id) }
                } else if was != nil {
                    changes.deleted.insert(id)
                }
            }
        }
        publish(changes)
        return changes
    }
}
