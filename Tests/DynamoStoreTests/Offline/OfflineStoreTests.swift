import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Synchronization
import Testing

/// The device's copy: saves commit locally first, reads see them at once, a relaunch finds
/// cache and outbox, replay stores each save once, failures leave the queue visibly.
@Suite("OfflineStoreTests")
struct OfflineStoreTests {
    @Test func anOfflineSaveIsKeptAcrossARelaunchAndReplayedOnce() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "written offline"
            try await context.save()
            #expect(memo.version == 1)
            #expect(try phone.offline.pendingEntries().map(\.objectIDs) == [[memo.objectID]])

            // The app is killed and started again, still offline: the save is there.
            try phone.relaunch()
            let relaunched = phone.context()
            let found = try await relaunched.existingObject(with: memo.objectID, as: Memo.self)
            #expect(found?.a == "written offline")
            #expect(try await relaunched.fetch(try FetchRequest<Memo>(in: phone.store.model)).map(\.id) == ["m1"])
            #expect(try await relaunched.count(for: try FetchRequest<Memo>(in: phone.store.model)) == 1)
            #expect(try await fixture.memo("m1") == nil)

            // Offline, a replay stores nothing and keeps the entry.
            #expect(try await phone.store.replayOutbox().isEmpty)
            #expect(try phone.offline.pendingEntries().count == 1)

            phone.radio.isOffline = false
            let outcomes = phone.offline.outcomes()
            let replayed = try await phone.store.replayOutbox()
            #expect(replayed == [OutboxOutcome(sequence: 1, objects: [memo.objectID: .applied], failure: nil)])
            var iterator = outcomes.makeAsyncIterator()
            #expect(await iterator.next() == replayed.first)
            #expect(try phone.offline.pendingEntries().isEmpty)
            let row = try #require(try await fixture.memo("m1"))
            #expect(row.text("a") == "written offline")
            #expect(row.integer("version") == 1)
        }
    }

    @Test func readsSeeLocalChangesBeforeTheyAreReplayed() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "server", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context()
            let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            memo.a = "local"
            try await context.save()
            // Online, before the replay: DynamoDB still has the old text, the phone shows its own.
            #expect(try await fixture.memo("m1")?.text("a") == "server")
            let other = phone.context()
            #expect(try await other.existingObject(with: Memo.memoID("m1"), as: Memo.self)?.a == "local")
            let request = try FetchRequest<Memo>(in: phone.store.model, predicate: FetchPredicate("a == %@", "local"))
            #expect(try await other.fetch(request).map(\.id) == ["m1"])
            let old = try FetchRequest<Memo>(in: phone.store.model, predicate: FetchPredicate("a == %@", "server"))
            #expect(try await other.fetch(old).isEmpty)

            // Offline, a fresh launch reads the cached row with the local change on top.
            phone.radio.isOffline = true
            try phone.relaunch()
            #expect(try await phone.context().existingObject(with: Memo.memoID("m1"), as: Memo.self)?.a == "local")

            phone.radio.isOffline = false
            try await phone.store.replayOutbox()
            let row = try #require(try await fixture.memo("m1"))
            #expect(row.text("a") == "local")
            #expect(row.integer("version") == 2)
        }
    }

    @Test func laterSavesOfOneObjectReplayInOrderEachOnce() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "1"
            try await context.save()
            for text in ["2", "3", "4"] {
                memo.a = text
                try await context.save()
            }
            let pin = Pin(context: context)
            pin.id = "p1"
            pin.memo = memo
            try await context.save()
            #expect(try phone.offline.pendingEntries().count == 5)
            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(outcomes.allSatisfy { $0.failure == nil && $0.objects.values.allSatisfy { $0 == .applied } })
            let row = try #require(try await fixture.memo("m1"))
            #expect(row.text("a") == "4")
            #expect(row.integer("version") == 4)
            #expect(row["pins"] == .ss(["p1"]))
        }
    }

    @Test(arguments: [1, 2])
    func aLostAnswerIsNotAppliedTwice(objects: Int) async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            let context = phone.context()
            phone.radio.isOffline = true
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "first"
            if objects == 2 {
                // Two objects: one TransactWriteItems with the entry's request token.
                let pin = Pin(context: context)
                pin.id = "p1"
                pin.memo = memo
            }
            try await context.save()
            memo.a = "second"
            try await context.save()
            phone.radio.isOffline = false
            phone.radio.loseAnswers(of: 1)
            #expect(try await phone.store.replayOutbox().isEmpty)
            #expect(try await fixture.memo("m1")?.text("a") == "first")
            // The app is killed here and started again: the entry is still there.
            try phone.relaunch()
            #expect(try phone.offline.pendingEntries().count == 2)
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.count == 2)
            #expect(outcomes.allSatisfy { $0.failure == nil })
            #expect(try phone.offline.failedEntries().isEmpty)
            let row = try #require(try await fixture.memo("m1"))
            #expect(row.text("a") == "second")
            #expect(row.integer("version") == 2)
            // The entry's first transaction twice (its lost answer, then answered from the
            // token), the second once: every replayed write is a transaction with a kept token.
            #expect(phone.radio.count("TransactWriteItems") == 3)
            #expect(phone.radio.count("PutItem") == 0)
        }
    }

    @Test func aLostAnswerIsNotAppliedAgainAfterAnotherDeviceWrote() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", b: "b0", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context(.mergeByPropertyObjectTrump)
            let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            memo.a = "mine"
            try await context.save()
            phone.radio.loseAnswers(of: 1)
            #expect(try await phone.store.replayOutbox().isEmpty)
            // Stored (version 2) though the phone does not know; another device then changes a
            // again. Sending the save again as a new write would put "mine" back (object trump).
            _ = try await fixture.client.updateItem(
                UpdateItemInput(
                    tableName: "OfflineMemos", key: ["id": .s("m1")], updateExpression: "SET a = :a, version = :v",
                    expressionAttributeValues: [":a": .s("theirs"), ":v": .n(DynamoNumber(3))]))
            try phone.relaunch()
            #expect(try await phone.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): .applied]])
            let row = try #require(try await fixture.memo("m1"))
            #expect([row.text("a"), row.text("b")] == ["theirs", "b0"])
            #expect(row.integer("version") == 3)
        }
    }

    /// The answer of the write that resolved a conflict is lost (or the app is killed then):
    /// the next replay resolves against the row the first met, so it sends that very write
    /// again (answered from its token: no second write) and reports the same resolution.
    @Test(arguments: [
        (MergePolicy.mergeByPropertyStoreTrump, ["a0", "theirs"], OutboxOutcome.Resolution.merged, ["mine", "theirs"]),
        (MergePolicy.mergeByPropertyObjectTrump, ["theirs", "b0"], OutboxOutcome.Resolution.objectWon, ["mine", "b0"]),
        (MergePolicy.overwrite, ["theirs", "b0"], OutboxOutcome.Resolution.objectWon, ["mine", "b0"]),
    ])
    func aLostAnswerOfAResolvedConflictKeepsItsResolution(
        policy: MergePolicy, theirs: [String], resolution: OutboxOutcome.Resolution, texts: [String]
    ) async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", b: "b0", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context(policy)
            let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            phone.radio.isOffline = true
            memo.a = "mine"
            try await context.save()
            // Another device changes the memo meanwhile.
            try await fixture.putMemo("m1", a: theirs[0], b: theirs[1], version: 2)
            phone.radio.isOffline = false
            // The conflicting transaction is answered; the resolved one's answer is lost.
            phone.radio.loseAnswers(of: 1, after: 1)
            #expect(try await phone.store.replayOutbox().isEmpty)
            let stored = try #require(try await fixture.memo("m1"))
            try phone.relaunch()
            phone.radio.resetCounts()
            #expect(try await phone.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): resolution]])
            let row = try #require(try await fixture.memo("m1"))
            #expect([row.text("a"), row.text("b")] == texts)
            // Nothing was written twice: the row is the one the first replay stored.
            #expect(row == stored)
            #expect(try phone.offline.pendingEntries().isEmpty)
        }
    }

    @Test func aSaveThatCanNeverSucceedLeavesTheQueueWithItsError() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "server", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context()
            let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            phone.radio.isOffline = true
            memo.a = "mine"
            try await context.save()
            let later = Memo(context: context)
            later.id = "m2"
            later.a = "next"
            try await context.save()
            // Meanwhile another app changed m1: under the error policy the save can never succeed.
            try await fixture.putMemo("m1", a: "theirs", version: 2)
            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.count == 2)
            #expect(outcomes[0].objects == [Memo.memoID("m1"): .failed])
            #expect(outcomes[0].failure?.contains("m1") == true)
            #expect(outcomes[1].objects == [later.objectID: .applied])
            let failed = try phone.offline.failedEntries()
            #expect(failed.map(\.sequence) == [1])
            #expect(failed.first?.objectIDs == [Memo.memoID("m1")])
            #expect(try await fixture.memo("m1")?.text("a") == "theirs")
            #expect(try await fixture.memo("m2")?.text("a") == "next")
            // The failed change is no longer shown: the phone reads what DynamoDB has.
            #expect(try await phone.context().existingObject(with: Memo.memoID("m1"), as: Memo.self)?.a == "theirs")
            try phone.offline.discardFailedEntry(1)
            #expect(try phone.offline.failedEntries().isEmpty)
        }
    }

    @Test func aSaveToAMissingTableFailsWithDynamoDBsError() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            let pin = Pin(context: context)
            pin.id = "p1"
            try await context.save()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "kept"
            try await context.save()
            _ = try await fixture.client.deleteTable(DeleteTableInput(tableName: "OfflinePins"))
            phone.radio.isOffline = false
            let received = Mutex<[OutboxOutcome]>([])
            let observer = NotificationCenter.default.addObserver(forName: .dynamoStoreOutboxDidReplay, object: phone.offline, queue: nil) { note in
                if let outcome = note.userInfo?[OfflineStore.outcomeKey] as? OutboxOutcome { received.withLock { $0.append(outcome) } }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.sequence) == [1, 2])
            #expect(outcomes[0].failure?.contains("ResourceNotFoundException") == true)
            #expect(outcomes[1].failure == nil)
            #expect(received.withLock { $0 } == outcomes)
            #expect(try phone.offline.failedEntries().map(\.sequence) == [1])
        }
    }

    @Test func transactionConflictsKeepTheEntryForTheNextReplay() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "busy"
            let pin = Pin(context: context)
            pin.id = "p1"
            pin.memo = memo
            try await context.save()
            phone.radio.isOffline = false
            // Every attempt of the store's conflict retry (5) meets another transaction.
            phone.radio.addToNextRequest("X-LocalDynamo-Transaction-Conflicts", "OfflineMemos=5")
            _ = try await phone.store.client.describeTable(DescribeTableInput(tableName: "OfflineMemos"))
            #expect(try await phone.store.replayOutbox().isEmpty)
            #expect(try phone.offline.pendingEntries().map(\.attempts) == [1])
            #expect(try phone.offline.failedEntries().isEmpty)
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.failure) == [nil])
            #expect(try await fixture.memo("m1")?.integer("version") == 1)
        }
    }

    @Test func theCacheKeepsItsBoundAndNeverEvictsRowsWithPendingSaves() async throws {
        try await withOffline { fixture in
            for index in 0..<6 { try await fixture.putMemo("m\(index)", a: "x", version: 1) }
            let phone = try fixture.phone("p", maximumCachedRows: 3)
            let context = phone.context()
            let first = try #require(try await context.existingObject(with: Memo.memoID("m0"), as: Memo.self))
            first.a = "pending"
            phone.radio.isOffline = true
            try await context.save()
            phone.radio.isOffline = false
            _ = try await phone.context().fetch(try FetchRequest<Memo>(in: phone.store.model))
            #expect(try phone.offline.cachedRowCount() == 3)
            phone.radio.isOffline = true
            try phone.relaunch()
            let offlineContext = phone.context()
            #expect(try await offlineContext.existingObject(with: Memo.memoID("m0"), as: Memo.self)?.a == "pending")
            let cached = try await offlineContext.fetch(try FetchRequest<Memo>(in: phone.store.model)).map(\.id)
            #expect(cached.count == 3)
            #expect(cached.contains("m0"))
        }
    }

    @Test func aRefreshBringsChangedAndDeletedRows() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "old", version: 1)
            try await fixture.putMemo("m2", a: "doomed", version: 1)
            try await fixture.putMemo("m3", a: "same", version: 1)
            let phone = try fixture.phone("p")
            _ = try await phone.context().fetch(try FetchRequest<Memo>(in: phone.store.model))
            try await fixture.putMemo("m1", a: "new", version: 2)
            _ = try await fixture.client.deleteItem(DeleteItemInput(tableName: "OfflineMemos", key: ["id": .s("m2")]))
            let changes = try await phone.store.refreshCache()
            #expect(changes.updated == [Memo.memoID("m1")])
            #expect(changes.deleted == [Memo.memoID("m2")])
            phone.radio.isOffline = true
            let context = phone.context()
            #expect(
                try await context.fetch(try FetchRequest<Memo>(in: phone.store.model)).map { "\($0.id) \($0.a)" }.sorted() == ["m1 new", "m3 same"])
            #expect(try await context.existingObject(with: Memo.memoID("m2"), as: Memo.self) == nil)
        }
    }

    @Test func aReplayLoopStoresSavesWhenTheNetworkComesBack() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "later"
            try await context.save()
            let store = phone.store
            let loop = Task { await store.keepReplayingOutbox(every: .milliseconds(5)) }
            defer { loop.cancel() }
            var outcomes = phone.offline.outcomes().makeAsyncIterator()
            phone.radio.isOffline = false
            // The loop's next replay (within 5 ms of the network coming back) stores the save.
            #expect(await outcomes.next() == OutboxOutcome(sequence: 1, objects: [memo.objectID: .applied], failure: nil))
            #expect(try await fixture.memo("m1")?.text("a") == "later")
        }
    }

    @Test func theStreamFollowerKeepsTheCacheCurrent() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "old", version: 1)
            try await fixture.putMemo("m2", a: "doomed", version: 1)
            let phone = try fixture.phone("p")
            _ = try await phone.context().fetch(try FetchRequest<Memo>(in: phone.store.model))
            try await phone.store.enableChangeStreams(pollInterval: .milliseconds(10))
            let changes = try await phone.store.changes(fromStream: .latest, pollInterval: .milliseconds(10))
            let store = phone.store
            let follower = Task { try await store.refreshCache(following: changes) }
            defer { follower.cancel() }
            try await fixture.putMemo("m1", a: "new", version: 2)
            _ = try await fixture.client.deleteItem(DeleteItemInput(tableName: "OfflineMemos", key: ["id": .s("m2")]))
            // Streams are asynchronous: look at the cache until the deletion (the later record)
            // is in, at most 10 s.
            let deadline = ContinuousClock.now + .seconds(10)
            while try phone.offline.cachedRowCount() != 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            phone.radio.isOffline = true
            let context = phone.context()
            #expect(try await context.fetch(try FetchRequest<Memo>(in: phone.store.model)).map { "\($0.id) \($0.a)" } == ["m1 new"])
            #expect(try await context.existingObject(with: Memo.memoID("m2"), as: Memo.self) == nil)
        }
    }
}

extension Memo {
    static func memoID(_ id: String) -> ObjectID { ObjectID(entityName: "Memo", key: ["id": .s(id)]) }
}

/// Deletes, a delete and insert of one key, and fetches over the device's rows.
@Suite("OfflineDeleteAndFetchTests")
struct OfflineDeleteAndFetchTests {
    @Test func anOfflineDeleteHidesTheObjectAndIsReplayedWithItsNullifyRule() async throws {
        try await withOffline { fixture in
            let phone = try fixture.phone("p")
            let context = phone.context()
            let memo = Memo(context: context)
            memo.id = "m1"
            memo.a = "doomed"
            let pin = Pin(context: context)
            pin.id = "p1"
            pin.memo = memo
            try await context.save()
            try await phone.store.replayOutbox()
            phone.radio.isOffline = true
            context.delete(memo)
            try await context.save()
            #expect(pin.memo == nil)
            let other = phone.context()
            #expect(try await other.existingObject(with: Memo.memoID("m1"), as: Memo.self) == nil)
            #expect(try await other.fetch(try FetchRequest<Memo>(in: phone.store.model)).isEmpty)
            let pinID = ObjectID(entityName: "Pin", key: ["id": .s("p1")])
            let shownPin = try #require(try await other.existingObject(with: pinID, as: Pin.self))
            #expect(shownPin.memo == nil)
            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.objects) == [[Memo.memoID("m1"): .applied, pinID: .applied]])
            #expect(try await fixture.memo("m1") == nil)
            let storedPin = try await fixture.client.getItem(GetItemInput(tableName: "OfflinePins", key: ["id": .s("p1")], consistentRead: true)).item
            #expect(storedPin?["memo"] == nil)
            #expect(storedPin?.integer("version") == 2)
        }
    }

    @Test func aDeleteAndInsertOfOneKeyOfflineReplaysAsOneWrite() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "old", b: "gone", version: 3)
            let phone = try fixture.phone("p")
            let context = phone.context()
            let old = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            phone.radio.isOffline = true
            context.delete(old)
            let new = Memo(context: context)
            new.id = "m1"
            new.a = "new"
            try await context.save()
            phone.radio.isOffline = false
            phone.radio.resetCounts()
            #expect(try await phone.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): .applied]])
            #expect(phone.radio.count("TransactWriteItems") == 1)
            let row = try #require(try await fixture.memo("m1"))
            #expect([row.text("a"), row.text("b")] == ["new", nil])
            #expect(row.integer("version") == 4)
        }
    }

    @Test func anOfflineFetchFiltersSortsAndLimitsTheDevicesRows() async throws {
        try await withOffline { fixture in
            for (id, a) in [("m1", "k"), ("m2", "c"), ("m3", "x"), ("m4", "a")] { try await fixture.putMemo(id, a: a, version: 1) }
            let phone = try fixture.phone("p")
            _ = try await phone.context().fetch(try FetchRequest<Memo>(in: phone.store.model))
            phone.radio.isOffline = true
            let context = phone.context()
            let added = Memo(context: context)
            added.id = "m5"
            added.a = "b"
            try await context.save()
            let changed = try #require(try await context.existingObject(with: Memo.memoID("m3"), as: Memo.self))
            changed.a = "d"
            try await context.save()
            var request = try FetchRequest<Memo>(in: phone.store.model, predicate: FetchPredicate("a < %@", "j"), sortBy: [.ascending("a")])
            request.fetchLimit = 3
            let fresh = phone.context()
            #expect(try await fresh.fetch(request).map(\.id) == ["m4", "m5", "m2"])
            request.fetchLimit = nil
            #expect(try await fresh.fetch(request).map(\.id) == ["m4", "m5", "m2", "m3"])
            #expect(try await fresh.count(for: request) == 4)
        }
    }
}
