import DynamoAPI
import DynamoClient
import DynamoStore
import Testing

/// Two phones edit one memo offline and come back in either order: the first replay stores
/// its save, the second meets the conflict and its context's merge policy decides, exactly as
/// an online save would.
@Suite("OfflineConflictTests")
struct OfflineConflictTests {
    /// What the second phone's replay makes of the memo (texts `a`, `b`, the version) and how
    /// it reports it.
    struct Expected: Sendable {
        var a: String
        var b: String
        var version: Int
        var resolution: OutboxOutcome.Resolution
    }

    /// Phone X changes `a`; phone Y changes `a` and `b`. `xFirst` says whose replay runs first.
    static let cases: [(MergePolicy, Bool, Expected)] = [
        (.error, true, Expected(a: "x", b: "b0", version: 2, resolution: .failed)),
        (.error, false, Expected(a: "y", b: "yb", version: 2, resolution: .failed)),
        (.mergeByPropertyStoreTrump, true, Expected(a: "x", b: "yb", version: 3, resolution: .merged)),
        (.mergeByPropertyStoreTrump, false, Expected(a: "y", b: "yb", version: 2, resolution: .rolledBack)),
        (.mergeByPropertyObjectTrump, true, Expected(a: "y", b: "yb", version: 3, resolution: .objectWon)),
        (.mergeByPropertyObjectTrump, false, Expected(a: "x", b: "yb", version: 3, resolution: .merged)),
        (.overwrite, true, Expected(a: "y", b: "yb", version: 3, resolution: .objectWon)),
        (.overwrite, false, Expected(a: "x", b: "b0", version: 3, resolution: .objectWon)),
        (.rollback, true, Expected(a: "x", b: "b0", version: 2, resolution: .rolledBack)),
        (.rollback, false, Expected(a: "y", b: "yb", version: 2, resolution: .rolledBack)),
    ]

    @Test(arguments: cases)
    func twoPhonesEditOneMemoOffline(policy: MergePolicy, xFirst: Bool, expected: Expected) async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", b: "b0", version: 1)
            let x = try fixture.phone("x"), y = try fixture.phone("y")
            let xContext = x.context(policy), yContext = y.context(policy)
            let xMemo = try #require(try await xContext.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            let yMemo = try #require(try await yContext.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            x.radio.isOffline = true
            y.radio.isOffline = true
            xMemo.a = "x"
            try await xContext.save()
            yMemo.a = "y"
            yMemo.b = "yb"
            try await yContext.save()
            let (first, second) = xFirst ? (x, y) : (y, x)
            first.radio.isOffline = false
            #expect(try await first.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): .applied]])
            second.radio.isOffline = false
            let outcomes = try await second.store.replayOutbox()
            #expect(outcomes.map(\.objects) == [[Memo.memoID("m1"): expected.resolution]])
            #expect((outcomes.first?.failure != nil) == (expected.resolution == .failed))
            let row = try #require(try await fixture.memo("m1"))
            #expect(row.text("a") == expected.a)
            #expect(row.text("b") == expected.b)
            #expect(row.integer("version") == expected.version)
            // The second phone now shows what DynamoDB holds.
            second.radio.isOffline = true
            let shown = try #require(try await second.context().existingObject(with: Memo.memoID("m1"), as: Memo.self))
            #expect([shown.a, shown.b ?? "-"] == [expected.a, expected.b])
            #expect(shown.version == Int64(expected.version))
        }
    }

    @Test(arguments: [MergePolicy.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
    func pinsAddedOnTwoPhonesOfflineAreBothKept(policy: MergePolicy) async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", version: 1)
            let x = try fixture.phone("x"), y = try fixture.phone("y")
            for (phone, pinID) in [(x, "px"), (y, "py")] {
                let context = phone.context(policy)
                let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
                phone.radio.isOffline = true
                let pin = Pin(context: context)
                pin.id = pinID
                pin.memo = memo
                try await context.save()
            }
            for phone in [y, x] {
                phone.radio.isOffline = false
                let outcomes = try await phone.store.replayOutbox()
                #expect(outcomes.count == 1)
                #expect(outcomes.allSatisfy { $0.failure == nil && $0.objects.values.allSatisfy { $0 == .applied } })
            }
            let row = try #require(try await fixture.memo("m1"))
            #expect(row["pins"] == .ss(["px", "py"]))
            #expect(row.integer("version") == 1)
            for pinID in ["px", "py"] {
                let pin = try await fixture.client.getItem(GetItemInput(tableName: "OfflinePins", key: ["id": .s(pinID)], consistentRead: true)).item
                #expect(pin?["memo"] == .s("m1"))
            }
        }
    }
}

/// A context that keeps its objects across a replay continues from what the replay stored.
@Suite("OfflineLongLivedContextTests")
struct OfflineLongLivedContextTests {
    @Test func aContextKeepsSavingAfterItsSaveWasMergedOnReplay() async throws {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", b: "b0", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context(.mergeByPropertyObjectTrump)
            let memo = try #require(try await context.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            phone.radio.isOffline = true
            memo.a = "mine"
            try await context.save()
            try await fixture.putMemo("m1", a: "a0", b: "theirs", version: 2)
            phone.radio.isOffline = false
            #expect(try await phone.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): .merged]])
            // The context still holds its own save's image (version 2); the next save starts
            // from what the replay stored (version 3), so it is no conflict.
            memo.a = "again"
            try await context.save()
            #expect(try await phone.store.replayOutbox().map(\.objects) == [[Memo.memoID("m1"): .applied]])
            let row = try #require(try await fixture.memo("m1"))
            #expect([row.text("a"), row.text("b")] == ["again", "theirs"])
            #expect(row.integer("version") == 4)
        }
    }
}

/// Two contexts of one phone change one memo offline: the one that read it before the other's
/// save conflicts with that save on replay, as it would have online.
@Suite("OfflineTwoContextsTests")
struct OfflineTwoContextsTests {
    @Test(arguments: [(MergePolicy.error, OutboxOutcome.Resolution.failed, "b0"), (.mergeByPropertyObjectTrump, .merged, "mine")])
    func aContextThatReadBeforeAnotherContextsSaveConflictsWithIt(policy: MergePolicy, resolution: OutboxOutcome.Resolution, b: String)
        async throws
    {
        try await withOffline { fixture in
            try await fixture.putMemo("m1", a: "a0", b: "b0", version: 1)
            let phone = try fixture.phone("p")
            phone.radio.isOffline = false
            let early = phone.context(policy), late = phone.context(policy)
            let earlyMemo = try #require(try await early.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            phone.radio.isOffline = true
            let lateMemo = try #require(try await late.existingObject(with: Memo.memoID("m1"), as: Memo.self))
            lateMemo.a = "late"
            try await late.save()
            earlyMemo.b = "mine"
            try await early.save()
            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.objects) == [[Memo.memoID("m1"): .applied], [Memo.memoID("m1"): resolution]])
            let row = try #require(try await fixture.memo("m1"))
            #expect([row.text("a"), row.text("b")] == ["late", b])
            #expect(row.integer("version") == (resolution == .failed ? 2 : 3))
        }
    }
}
