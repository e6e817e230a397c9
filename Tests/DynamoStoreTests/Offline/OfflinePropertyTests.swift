import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// Seeded random schedules of two phones editing two memos (texts `a` and `b`), going
/// offline and online, replaying in any order and being relaunched, each phone under a random
/// merge policy, checked step by step against a model of DynamoDB and of each phone: every
/// replay's outcome (applied, object won, merged, rolled back, failed) exactly, every memo's
/// row exactly (versions count the writes: none applied twice, none lost), and what each phone
/// shows.
///
/// Size from the environment: `STORE_OFFLINE_SEEDS` (a count, or `a-b`; default 5) and
/// `STORE_OFFLINE_STEPS` (default 40).
@Suite("OfflinePropertyTests")
struct OfflinePropertyTests {
    static var seeds: [UInt64] { environmentSeeds("STORE_OFFLINE_SEEDS", default: 5) }

    static var steps: Int { Int(ProcessInfo.processInfo.environment["STORE_OFFLINE_STEPS"] ?? "") ?? 40 }

    static let policies: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]
    static let memos = ["m0", "m1"]

    @Test(arguments: seeds)
    func randomSchedulesMatchTheModel(seed: UInt64) async throws {
        try await withOffline { fixture in
            var random = SeededRandom(seed: seed)
            var server: [String: MemoRow] = [:]
            for id in Self.memos {
                try await fixture.putMemo(id, a: "a0", b: "b0", version: 1)
                server[id] = MemoRow(a: "a0", b: "b0", version: 1)
            }
            let phones = [try fixture.phone("x"), try fixture.phone("y")]
            var models: [PhoneState] = []
            for phone in phones {
                let policy = random.pick(Self.policies)
                var model = PhoneState(policy: policy)
                // Both phones read every memo once, so their caches hold them.
                for id in Self.memos {
                    _ = try await phone.context(policy).existingObject(with: Memo.memoID(id), as: Memo.self)
                    model.cache[id] = server[id]
                }
                models.append(model)
            }
            for step in 0..<Self.steps {
                let index = random.int(0..<2)
                let phone = phones[index]
                let context = "seed \(seed) step \(step) phone \(index) (\(models[index].policy))"
                switch random.int(0..<100) {
                case 0..<50:
                    let id = random.pick(Self.memos), property = random.chance(50) ? "a" : "b", value = "v\(step)"
                    let editing = phone.context(models[index].policy)
                    let memo = try #require(try await editing.existingObject(with: Memo.memoID(id), as: Memo.self))
                    #expect(MemoRow(memo) == models[index].view(id, server: server), "\(context): read of \(id)")
                    if property == "a" { memo.a = value } else { memo.b = value }
                    try await editing.save()
                    models[index].edit(id, property, value, server: server)
                case 50..<65:
                    phone.radio.isOffline.toggle()
                    models[index].online = !phone.radio.isOffline
                case 65..<84:
                    let outcomes = try await phone.store.replayOutbox()
                    let expected = models[index].replay(&server)
                    #expect(outcomes.map { $0.objects.values.first } == expected.map { $0 }, "\(context): replay")
                case 84..<92:
                    // A replay whose answer to one write is lost after DynamoDB acted on it (a
                    // dropped connection, or the app killed then), and the app started again.
                    let answered = random.int(0..<3)
                    phone.radio.loseAnswers(of: 1, after: answered)
                    let outcomes = try await phone.store.replayOutbox()
                    let expected = models[index].replay(&server, losingWriteAfter: answered)
                    #expect(outcomes.map { $0.objects.values.first } == expected.map { $0 }, "\(context): replay losing an answer")
                    phone.radio.loseAnswers(of: 0)
                    try phone.relaunch()
                default:
                    try phone.relaunch()
                }
                for id in Self.memos {
                    let row = try await fixture.memo(id).map(MemoRow.init)
                    #expect(row == server[id], "\(context): \(id) in DynamoDB")
                }
            }
            for (index, phone) in phones.enumerated() {
                phone.radio.isOffline = false
                models[index].online = true
                let outcomes = try await phone.store.replayOutbox()
                #expect(outcomes.map { $0.objects.values.first } == models[index].replay(&server).map { $0 }, "seed \(seed): last replay of \(index)")
                #expect(try phone.offline.pendingEntries().isEmpty)
                #expect(try phone.offline.failedEntries().count == models[index].failed, "seed \(seed) phone \(index)")
            }
            for id in Self.memos {
                #expect(try await fixture.memo(id).map(MemoRow.init) == server[id], "seed \(seed): \(id) at the end")
                for (index, phone) in phones.enumerated() {
                    let shown = try await phone.context().existingObject(with: Memo.memoID(id), as: Memo.self).map(MemoRow.init)
                    #expect(shown == server[id], "seed \(seed): \(id) shown by phone \(index)")
                }
            }
        }
    }
}

/// A memo's row: its two texts and its version.
struct MemoRow: Hashable, CustomStringConvertible {
    var a: String
    var b: String?
    var version: Int

    init(a: String, b: String?, version: Int) {
        self.a = a
        self.b = b
        self.version = version
    }

    init(_ item: Item) {
        self.init(a: item.text("a") ?? "", b: item.text("b"), version: item.integer("version") ?? 0)
    }

    init(_ memo: Memo) {
        self.init(a: memo.a, b: memo.b, version: Int(memo.version))
    }

    subscript(_ property: String) -> String? {
        get { property == "a" ? a : b }
        set {
            if property == "a" { a = newValue ?? "" } else { b = newValue }
        }
    }

    func sameValues(_ other: MemoRow) -> Bool { a == other.a && b == other.b }

    var description: String { "\(a)/\(b ?? "-")@\(version)" }
}

/// One phone as the model sees it: its cache, its outbox, whether it is online.
struct PhoneState {
    struct Entry {
        var memo: String
        var read: MemoRow
        var property: String
        var value: String
        var after: MemoRow
        var readFromOutbox: Bool
        /// Stored by a write whose answer was lost: the resolution and row the next replay
        /// reports (answered from the request token, nothing written again).
        var stored: (resolution: OutboxOutcome.Resolution, row: MemoRow)?
        /// The row a replay killed before its resolved write met at the entry's conflict, which
        /// the store keeps on the device: the next replay resolves against it first (so it
        /// plans the very write the killed one may have sent), then, when DynamoDB holds
        /// another row by then (the other phone wrote), against that row.
        var firstConflict: MemoRow?
    }

    let policy: MergePolicy
    var online = true
    var cache: [String: MemoRow] = [:]
    var outbox: [Entry] = []
    var failed = 0

    init(policy: MergePolicy) {
        self.policy = policy
    }

    /// What a fresh context of the phone reads: the last pending save's image, else DynamoDB
    /// (online; the cache takes it), else the cache.
    mutating func view(_ memo: String, server: [String: MemoRow]) -> MemoRow? {
        if let pending = outbox.last(where: { $0.memo == memo }) { return pending.after }
        if online { cache[memo] = server[memo] }
        return cache[memo]
    }

    mutating func edit(_ memo: String, _ property: String, _ value: String, server: [String: MemoRow]) {
        let fromOutbox = outbox.contains { $0.memo == memo }
        guard let read = view(memo, server: server) else { return }
        var after = read
        after[property] = value
        after.version += 1
        outbox.append(Entry(memo: memo, read: read, property: property, value: value, after: after, readFromOutbox: fromOutbox))
    }

    /// Replays the outbox against `server` as the store does: the resolutions, entry by entry.
    /// With `losingWriteAfter`, the answer of the write after that many is lost: DynamoDB acted
    /// on it, the replay stops there and its entry stays in the outbox. With `sent: false` too,
    /// that write is never sent (the app was killed before it).
    mutating func replay(
        _ server: inout [String: MemoRow], losingWriteAfter answered: Int? = nil, sent: Bool = true
    ) -> [OutboxOutcome.Resolution] {
        guard online else { return [] }
        var resolutions: [OutboxOutcome.Resolution] = []
        var writesLeft = answered
        while !outbox.isEmpty {
            if let (resolution, row) = outbox[0].stored {
                // Sent again with its tokens: answered as stored, the row as that write left it.
                // A resolved conflict sends its conditional write (refused) and the resolved one.
                if let left = writesLeft {
                    let writes = resolution == .applied ? 1 : 2
                    guard left >= writes else { return resolutions }
                    writesLeft = left - writes
                }
                let entry = outbox.removeFirst()
                cache[entry.memo] = row
                resolutions.append(resolution)
                rebase(entry.memo, on: row)
                continue
            }
            let entry = outbox[0]
            guard let now = server[entry.memo] else { break }
            var conflictRow = now
            let resolution: OutboxOutcome.Resolution
            var result: MemoRow
            if let first = entry.firstConflict {
                // Sent again: its conditional write meets the row DynamoDB holds now, resolved
                // against the kept one; that write, when the row moved on since, meets it too.
                precondition(answered == nil, "a replay after a kill is not held again")
                result = resolve(entry, against: first)
                conflictRow = first
                if now.version != first.version {
                    var moved = entry
                    moved.read = first
                    if result.version == first.version { result = now } else { result = resolve(moved, against: now) }
                    conflictRow = now
                }
                resolution =
                    result.sameValues(entry.after) ? .objectWon : result.sameValues(conflictRow) ? .rolledBack : .merged
            } else if now.version == entry.read.version {
                result = now
                result[entry.property] = entry.value
                result.version += 1
                resolution = .applied
            } else {
                if let left = writesLeft {
                    // The conditional write that meets the conflict: its answer lost, nothing stored.
                    guard left > 0 else { return resolutions }
                    writesLeft = left - 1
                }
                if policy == .error {
                    outbox.removeFirst()
                    failed += 1
                    resolutions.append(.failed)
                    cache[entry.memo] = conflictRow
                    rebase(entry.memo, on: conflictRow)
                    continue
                }
                result = resolve(entry, against: now)
                resolution =
                    result.sameValues(entry.after) ? .objectWon : result.sameValues(conflictRow) ? .rolledBack : .merged
            }
            if let left = writesLeft, result.version != conflictRow.version || resolution == .applied {
                // The write that stores the entry (its only one, or the resolved one).
                if left == 0 {
                    // A resolved write: the conflict's row was kept before it was sent.
                    if resolution != .applied { outbox[0].firstConflict = conflictRow }
                    if sent {
                        server[entry.memo] = result
                        outbox[0].stored = (resolution, result)
                    }
                    return resolutions
                }
                writesLeft = left - 1
            }
            outbox.removeFirst()
            server[entry.memo] = result
            cache[entry.memo] = result
            resolutions.append(resolution)
            rebase(entry.memo, on: result)
        }
        return resolutions
    }

    /// What the phone's merge policy makes of an entry meeting `row` (a conflict): the row it
    /// writes (the version one more), or `row` itself when it writes nothing.
    private func resolve(_ entry: Entry, against row: MemoRow) -> MemoRow {
        var stored = row
        switch policy {
        case .error, .rollback:
            return row
        case .mergeByPropertyStoreTrump:
            guard stored[entry.property] == entry.read[entry.property] else { return row }
            stored[entry.property] = entry.value
        case .mergeByPropertyObjectTrump:
            stored[entry.property] = entry.value
        case .overwrite:
            stored.a = entry.after.a
            stored.b = entry.after.b
        }
        stored.version += 1
        return stored
    }

    /// The next entry of a memo that read the finished entry's image reads `row` instead.
    private mutating func rebase(_ memo: String, on row: MemoRow) {
        guard let next = outbox.firstIndex(where: { $0.memo == memo }), outbox[next].readFromOutbox else { return }
        outbox[next].read = row
        outbox[next].readFromOutbox = false
    }
}
