import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// Offline saves whose changes reach objects the phone never read (a relationship's other side
/// never fetched, a delete rule's destinations): the outbox keeps only what changed on them
/// (delta records) and the replay applies it to the rows DynamoDB holds then, once.
@Suite("OfflineUnreadFaultTests")
struct OfflineUnreadFaultTests {
    @Test func aPinMovedToMemosNeverReadIsSavedOfflineAndReplayedOnTheirCurrentRows() async throws {
        try await withOffline { fixture in
            try await putMemo(fixture, "m1", a: "one", pins: ["p1"], version: 3)
            try await putMemo(fixture, "m2", a: "two", pins: [], version: 7)
            try await putPin(fixture, "p1", memo: "m1", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context()
            // The phone reads the pin only: its memos stay faults, never on the device.
            let pin = try #require(try await context.existingObject(with: pinID("p1"), as: Pin.self))

            phone.radio.isOffline = true
            pin.memo = try #require(context.object(with: memoID("m2")) as? Memo)
            try await context.save()
            #expect(pin.version == 2)
            #expect(try phone.offline.pendingEntries().map { Set($0.objectIDs) } == [[pinID("p1"), memoID("m1"), memoID("m2")]])

            // Killed and started again offline: the pin shows its new memo; the memos were never
            // read, so they cannot be shown.
            try phone.relaunch()
            let relaunched = phone.context()
            let found = try #require(try await relaunched.existingObject(with: pinID("p1"), as: Pin.self))
            #expect(found.memo?.objectID == memoID("m2"))
            await #expect(throws: TransportError.self) { _ = try await relaunched.existingObject(with: memoID("m2"), as: Memo.self) }

            // Meanwhile another device changes m2: the replay keeps its values (a delta, not a row).
            try await putMemo(fixture, "m2", a: "changed elsewhere", pins: ["p9"], version: 8)

            // Online before the replay, the memos read DynamoDB's rows with the pending change on them.
            phone.radio.isOffline = false
            let online = phone.context()
            let m2 = try #require(try await online.existingObject(with: memoID("m2"), as: Memo.self))
            #expect(Set(m2.pins.map(\.objectID)) == [pinID("p1"), pinID("p9")])
            #expect(m2.a == "changed elsewhere")
            let m1 = try #require(try await online.existingObject(with: memoID("m1"), as: Memo.self))
            #expect(m1.pins.isEmpty)

            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.count == 1)
            #expect(outcomes.first?.failure == nil)
            #expect(outcomes.first?.objects == [pinID("p1"): .applied, memoID("m1"): .applied, memoID("m2"): .applied])
            #expect(try phone.offline.pendingEntries().isEmpty)
            let storedPin = try #require(try await row(fixture, "OfflinePins", "p1"))
            #expect(storedPin.text("memo") == "m2")
            #expect(storedPin.integer("version") == 2)
            let storedM1 = try #require(try await fixture.memo("m1"))
            #expect(storedM1["pins"] == nil)
            #expect(storedM1.integer("version") == 3)
            let storedM2 = try #require(try await fixture.memo("m2"))
            #expect(storedM2["pins"] == .ss(["p1", "p9"]))
            #expect(storedM2.text("a") == "changed elsewhere")
            #expect(storedM2.integer("version") == 8)
        }
    }

    @Test func deletingAMemoWhosePinsWereNeverReadNullifiesThemOnReplay() async throws {
        try await withOffline { fixture in
            try await putMemo(fixture, "m1", a: "one", pins: ["p1", "p2"], version: 1)
            try await putPin(fixture, "p1", memo: "m1", version: 1)
            try await putPin(fixture, "p2", memo: "m1", version: 1)
            let phone = try fixture.phone("p")
            let context = phone.context()
            let memo = try #require(try await context.existingObject(with: memoID("m1"), as: Memo.self))

            phone.radio.isOffline = true
            context.delete(memo)
            try await context.save()
            try phone.relaunch()
            #expect(try await phone.context().existingObject(with: memoID("m1"), as: Memo.self) == nil)

            // Another device changes p2 before the phone is back: the nullify applies to that row.
            try await putPin(fixture, "p2", memo: "m1", version: 5)
            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.failure) == [nil])
            #expect(try await fixture.memo("m1") == nil)
            let p1 = try #require(try await row(fixture, "OfflinePins", "p1"))
            let p2 = try #require(try await row(fixture, "OfflinePins", "p2"))
            #expect(p1["memo"] == nil)
            #expect(p1.integer("version") == 2)
            #expect(p2["memo"] == nil)
            #expect(p2.integer("version") == 6)
        }
    }

    @Test func deletingAnObjectNeverReadIsSavedOfflineAndItsRulesRunOnReplay() async throws {
        try await withOffline { fixture in
            try await putMemo(fixture, "m3", a: "three", pins: ["p3"], version: 2)
            try await putPin(fixture, "p3", memo: "m3", version: 4)
            let phone = try fixture.phone("p")
            phone.radio.isOffline = true
            let context = phone.context()
            context.delete(context.object(with: memoID("m3")))
            try await context.save()
            try phone.relaunch()
            // The device shows the deletion at once, offline.
            #expect(try await phone.context().existingObject(with: memoID("m3"), as: Memo.self) == nil)

            phone.radio.isOffline = false
            #expect(try await phone.store.replayOutbox().map(\.failure) == [nil])
            #expect(try await fixture.memo("m3") == nil)
            let p3 = try #require(try await row(fixture, "OfflinePins", "p3"))
            #expect(p3["memo"] == nil)
            #expect(p3.integer("version") == 5)
        }
    }

    @Test func aPinAddedToAMemoWhenThePinWasNeverReadMovesItFromItsOldMemoOnce() async throws {
        try await withOffline { fixture in
            let phone = try await addUnreadPinOffline(fixture)

            // The replay's transaction is stored and its answer lost; the app is killed.
            phone.radio.isOffline = false
            phone.radio.loseAnswers(of: 1)
            #expect(try await phone.store.replayOutbox().isEmpty)
            #expect(try phone.offline.pendingEntries().count == 1)
            try phone.relaunch()
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.failure) == [nil])
            #expect(try phone.offline.pendingEntries().isEmpty)

            // Stored once: the pin's to-one moved (one version), its old memo lost it.
            let p1 = try #require(try await row(fixture, "OfflinePins", "p1"))
            #expect(p1.text("memo") == "m1")
            #expect(p1.integer("version") == 4)
            #expect(try await fixture.memo("m1")?["pins"] == .ss(["p1"]))
            #expect(try await fixture.memo("m0")?["pins"] == nil)
            // The device's cache took what was stored.
            phone.radio.isOffline = true
            let reader = phone.context()
            let cached = try #require(try await reader.existingObject(with: pinID("p1"), as: Pin.self))
            #expect(cached.memo?.objectID == memoID("m1"))
            #expect(cached.version == 4)
        }
    }

    @Test func laterSavesOfAnObjectReadWithAPendingDeltaContinueFromItsReplay() async throws {
        try await withOffline { fixture in
            let phone = try await addUnreadPinOffline(fixture)

            // Online before the replay, another context reads the pin (DynamoDB's row with the
            // pending link) and saves it again offline.
            phone.radio.isOffline = false
            let other = phone.context()
            let pin = try #require(try await other.existingObject(with: pinID("p1"), as: Pin.self))
            #expect(pin.memo?.objectID == memoID("m1"))
            phone.radio.isOffline = true
            pin.memo = nil
            try await other.save()

            phone.radio.isOffline = false
            let outcomes = try await phone.store.replayOutbox()
            #expect(outcomes.map(\.failure) == [nil, nil])
            #expect(outcomes.last?.objects[pinID("p1")] == .applied)
            let p1 = try #require(try await row(fixture, "OfflinePins", "p1"))
            #expect(p1["memo"] == nil)
            #expect(p1.integer("version") == 5)
            #expect(try await fixture.memo("m1")?["pins"] == nil)
            #expect(try await fixture.memo("m0")?["pins"] == nil)
        }
    }

    /// Memo m1 (read) gains pin p1 offline; the pin is a fault, its memo (m0) unknown on the device.
    private func addUnreadPinOffline(_ fixture: OfflineFixture) async throws -> Phone {
        try await putMemo(fixture, "m1", a: "one", pins: [], version: 1)
        try await putMemo(fixture, "m0", a: "old", pins: ["p1"], version: 1)
        try await putPin(fixture, "p1", memo: "m0", version: 3)
        let phone = try fixture.phone("p")
        let context = phone.context()
        let memo = try #require(try await context.existingObject(with: memoID("m1"), as: Memo.self))
        phone.radio.isOffline = true
        memo.pins.insert(try #require(context.object(with: pinID("p1")) as? Pin))
        try await context.save()
        return phone
    }

    private func memoID(_ id: String) -> ObjectID { ObjectID(entityName: "Memo", key: ["id": .s(id)]) }
    private func pinID(_ id: String) -> ObjectID { ObjectID(entityName: "Pin", key: ["id": .s(id)]) }

    private func putMemo(_ fixture: OfflineFixture, _ id: String, a: String, pins: Set<String>, version: Int) async throws {
        var item: Item = ["id": .s(id), "a": .s(a), "version": .n(DynamoNumber(version))]
        if !pins.isEmpty { item["pins"] = .ss(pins.sorted()) }
        _ = try await fixture.client.putItem(PutItemInput(tableName: "OfflineMemos", item: item))
    }

    private func putPin(_ fixture: OfflineFixture, _ id: String, memo: String?, version: Int) async throws {
        var item: Item = ["id": .s(id), "version": .n(DynamoNumber(version))]
        if let memo { item["memo"] = .s(memo) }
        _ = try await fixture.client.putItem(PutItemInput(tableName: "OfflinePins", item: item))
    }

    private func row(_ fixture: OfflineFixture, _ table: String, _ id: String) async throws -> Item? {
        try await fixture.client.getItem(GetItemInput(tableName: table, key: ["id": .s(id)], consistentRead: true)).item
    }
}
