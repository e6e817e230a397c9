import DynamoAPI
@testable import DynamoEngine
import Foundation
import Synchronization
import Testing

/// Point-in-time recovery: the change log rebuilds any second of the window.
@Suite struct PointInTimeRestoreTests {
    /// A system time the test moves by hand.
    final class ManualTime: Sendable {
        let value = Mutex(1_800_000_000.0)
        func tick(_ seconds: Double) { value.withLock { $0 += seconds } }
        var read: @Sendable () -> Double { { [self] in value.withLock { $0 } } }
    }

    /// SplitMix64: the same sequence for a seed on every platform.
    struct SeededRandom: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func items(of table: String, in database: Database) throws -> [String: Item] {
        let definition = try database.table(named: table)
        return try database.read { connection in
            let rows = try connection.statement("SELECT item FROM items_\(definition.storageID)")
            var items: [String: Item] = [:]
            while try rows.step() {
                let item = try AttributeValue.decodeItem(JSONValue(parsing: rows.blob(0)))
                guard case .s(let key)? = item["pk"] else { continue }
                items[key] = item
            }
            return items
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func restoresEverySecondOfARandomHistory(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let time = ManualTime()
        let database = try Database(path: nil, region: "us-east-1", clock: ServerClock(systemTime: time.read))
        try DatabaseTests.makeTable(database)
        _ = try database.updateContinuousBackups(
            UpdateContinuousBackupsInput(
                tableName: "Things",
                pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: true)),
            now: time.read())
        // Writes at known times; after each, the expected state.
        var state: [String: Item] = [:]
        var history: [(time: Double, state: [String: Item])] = []
        for step in 0..<60 {
            time.tick(Double(Int.random(in: 1...20, using: &random)))
            let key = "k\(Int.random(in: 0..<8, using: &random))"
            if Bool.random(using: &random), state[key] != nil {
                _ = try database.deleteItem(DeleteItemInput(tableName: "Things", key: ["pk": .s(key)]))
                state[key] = nil
            } else {
                let item: Item = ["pk": .s(key), "step": .n(DynamoNumber(step))]
                _ = try database.putItem(PutItemInput(tableName: "Things", item: item))
                state[key] = item
            }
            history.append((time.read(), state))
        }
        time.tick(PITRSettings.latestRestorableLag + 1)
        for (index, moment) in history.enumerated() where index % 7 == 0 {
            let target = "Restored\(index)"
            _ = try database.restoreTableToPointInTime(
                RestoreTableToPointInTimeInput(
                    sourceTableName: "Things", targetTableName: target,
                    restoreDateTime: Timestamp(secondsSince1970: moment.time + 0.5)),
                now: time.read())
            #expect(try Self.items(of: target, in: database) == moment.state, "seed \(seed), step \(index)")
        }
        _ = try database.restoreTableToPointInTime(
            RestoreTableToPointInTimeInput(
                sourceTableName: "Things", targetTableName: "Latest",
                useLatestRestorableTime: true), now: time.read())
        #expect(try Self.items(of: "Latest", in: database) == state)
    }

    @Test func refusesTimesOutsideTheWindowAndTablesWithoutRecovery() throws {
        let time = ManualTime()
        let database = try Database(path: nil, region: "us-east-1", clock: ServerClock(systemTime: time.read))
        try DatabaseTests.makeTable(database)
        let restore = RestoreTableToPointInTimeInput(
            sourceTableName: "Things", targetTableName: "Copy",
            useLatestRestorableTime: true)
        #expect(
            throws: DynamoError(
                .pointInTimeRecoveryUnavailable,
                "Point in time recovery is not enabled for table 'Things'")
        ) {
            try database.restoreTableToPointInTime(restore, now: time.read())
        }
        _ = try database.updateContinuousBackups(
            UpdateContinuousBackupsInput(
                tableName: "Things",
                pointInTimeRecoverySpecification:
                    .init(pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 1)), now: time.read())
        time.tick(2 * 86_400)
        let described = try database.describeContinuousBackups(.init(tableName: "Things"), now: time.read())
        let window = try #require(described.continuousBackupsDescription?.pointInTimeRecoveryDescription)
        #expect(window.earliestRestorableDateTime?.secondsSince1970 == time.read() - 86_400)
        #expect(window.latestRestorableDateTime?.secondsSince1970 == time.read() - 300)
        var early = restore
        early.useLatestRestorableTime = nil
        early.restoreDateTime = Timestamp(secondsSince1970: time.read() - 2 * 86_400)
        #expect(throws: DynamoError.self) { try database.restoreTableToPointInTime(early, now: time.read()) }
        #expect(throws: DynamoError(.tableNotFound, "Table not found: Nothing")) {
            try database.describeContinuousBackups(.init(tableName: "Nothing"), now: time.read())
        }
    }
}
