import DynamoAPI
@testable import DynamoEngine
import Dispatch
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import Testing

/// The writer thread's group commit (`Database.enqueueWrite`): the writes queued while it was
/// busy run in order in one transaction, each in its own savepoint, and are answered after the
/// one commit.
@Suite struct WriteGroupTests {
    /// The answers of queued writes, by position, and a way to wait for all of them.
    final class Answers: Sendable {
        let results = Mutex<[Int: Result<String, any Error>]>([:])
        let done = DispatchSemaphore(value: 0)

        func enqueue(_ position: Int, on database: Database, _ work: @escaping @Sendable () throws -> Void) {
            database.enqueueWrite(
                {
                    try work()
                    return "ok"
                },
                completion: { result in
                    self.results.withLock { $0[position] = result }
                    self.done.signal()
                })
        }

        func wait(for count: Int) -> [Int: Result<String, any Error>] {
            for _ in 0..<count { done.wait() }
            return results.withLock { $0 }
        }
    }

    static func errorCode(_ result: Result<String, any Error>?) -> DynamoErrorCode? {
        guard case .failure(let error) = result else { return nil }
        return (error as? DynamoError)?.code
    }

    /// Each write sees the ones queued before it; a failing one is undone alone (rows, counts)
    /// with its own error; every write is answered, and the group is committed once.
    @Test(arguments: [false, true])
    func writesQueuedWhileTheWriterIsBusyCommitTogether(onDisk: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groups-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try Database(path: onDisk ? "\(directory)/us-east-1.db" : nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        let answers = Answers()
        // A slow first write keeps the writer thread busy until the others are queued.
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        answers.enqueue(0, on: database) {
            started.signal()
            release.wait()
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("slow")]))
        }
        started.wait()
        let notThere = "attribute_not_exists(pk)"
        answers.enqueue(1, on: database) {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(1))]))
        }
        answers.enqueue(2, on: database) { // sees write 1: fails alone
            _ = try database.putItem(
                PutItemInput(
                    tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(9))],
                    conditionExpression: notThere))
        }
        answers.enqueue(3, on: database) { // sees write 1: v = 1
            _ = try database.updateItem(
                UpdateItemInput(
                    tableName: "Things", key: ["pk": .s("a")], updateExpression: "SET v = v + :one",
                    conditionExpression: "v = :one", expressionAttributeValues: [":one": .n(DynamoNumber(1))]))
        }
        answers.enqueue(4, on: database) { // cancelled: nothing of it stays
            let put = Put(item: ["pk": .s("b")], tableName: "Things")
            let check = DynamoAPI.ConditionCheck(
                key: ["pk": .s("a")], tableName: "Things", conditionExpression: "v = :nine",
                expressionAttributeValues: [":nine": .n(DynamoNumber(9))])
            _ = try database.transactWriteItems(
                TransactWriteItemsInput(transactItems: [TransactWriteItem(put: put), TransactWriteItem(conditionCheck: check)]),
                now: 1_700_000_000)
        }
        answers.enqueue(5, on: database) {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("c")]))
        }
        answers.enqueue(6, on: database) { // sees write 5
            _ = try database.deleteItem(
                DeleteItemInput(
                    tableName: "Things", key: ["pk": .s("c")],
                    conditionExpression: "attribute_exists(pk)"))
        }
        #expect(database.writesInFlight == 7)
        release.signal()
        let results = answers.wait(for: 7)
        #expect(database.writesInFlight == 0)
        // The slow write alone, then the six queued behind it as one group.
        #expect(database.writeGroupsRun == 2)
        // Writes met: the next ones go to the writer too (see `writeNowIfIdle`).
        let contended = database.writeQueue.contended.load(ordering: .relaxed)
        #expect(contended)
        for position in [0, 1, 3, 5, 6] { #expect((try? results[position]?.get()) == "ok", "write \(position)") }
        #expect(Self.errorCode(results[2]) == .conditionalCheckFailed)
        #expect(Self.errorCode(results[4]) == .transactionCanceled)

        let a = try #require(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("a")])).json)
        #expect(try AttributeValue.decodeItem(JSONValue(parsing: a))["v"] == .n(DynamoNumber(2)))
        #expect(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("b")])).json == nil)
        #expect(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("c")])).json == nil)
        #expect(try database.statistics(of: database.table(named: "Things")).itemCount == 2)
        #expect(try database.checkInvariants().violations.isEmpty)
    }

    /// `writeNowIfIdle` runs a write on the calling thread only when the writer is idle: never
    /// while a write is queued or the lock is held (it does not wait), nor after such a meeting
    /// until the writer has run `calmGroups` groups of one; and a checkpoint due after its commit
    /// runs on the writer thread, not on the caller's.
    @Test func writeNowIfIdleNeverWaitsAndLeavesCheckpointsToTheWriter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/us-east-1.db"
        let database = try Database(path: path, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        func put(_ key: String, bytes: Int = 1) throws -> String? {
            try database.writeNowIfIdle {
                _ = try database.putItem(
                    PutItemInput(tableName: "Things", item: ["pk": .s(key), "v": .s(String(repeating: "x", count: bytes))]))
                return key
            }
        }
        #expect(try put("idle") == "idle")
        #expect(database.writeGroupsRun == 0)

        // The lock held by another thread: nothing runs, nothing waits.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "holder").async {
            database.holdingWriterLock {
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        #expect(try put("held") == nil)
        release.signal()
        done.wait()

        // A write queued (the writer thread busy with it): the next one queues too.
        let answers = Answers()
        let started = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        answers.enqueue(0, on: database) {
            started.signal()
            finish.wait()
        }
        started.wait()
        #expect(try put("queued") == nil)
        finish.signal()
        _ = answers.wait(for: 1)
        #expect(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("held")])).json == nil)
        #expect(try database.getItem(GetItemInput(tableName: "Things", key: ["pk": .s("queued")])).json == nil)

        // Writes met: they go to the writer until it has run enough groups of one in a row.
        #expect(try put("met") == nil)
        let calming = Answers()
        for position in 0..<WriteQueue.calmGroups {
            calming.enqueue(position, on: database) {}
            _ = calming.wait(for: 1)
        }
        // A write answered, the writer thread still ends its drain: a write arriving meanwhile
        // finds it busy. After the drain (the writer's queue is serial), it is idle.
        let drained = DispatchSemaphore(value: 0)
        database.writeQueue.run { drained.signal() }
        drained.wait()
        #expect(try put("calm") == "calm")

        // The writer thread's queue blocked: writes on this thread grow the log past the limit
        // and their commits reach a checkpoint's turn, which does not run here.
        let writerBusy = DispatchSemaphore(value: 0), writerRelease = DispatchSemaphore(value: 0)
        database.writeQueue.run {
            writerBusy.signal()
            writerRelease.wait()
        }
        writerBusy.wait()
        // Two batches of 25 items of 340,000 bytes: 17 MB in the log. Then one commit's turn to
        // look at the log comes within the next `interval` commits.
        for batch in 0..<2 {
            let writes = (0..<25).map { index in
                WriteRequest(
                    putRequest: PutRequest(item: [
                        "pk": .s("big-\(batch)-\(index)"), "v": .s(String(repeating: "x", count: 340_000)),
                    ]))
            }
            let written = try database.writeNowIfIdle {
                try database.batchWriteItem(BatchWriteItemInput(requestItems: ["Things": writes]))
            }
            #expect(written != nil)
        }
        #expect(CheckpointPolicy.fileSize(path + "-wal") > CheckpointPolicy.limitBytes)
        for index in 0..<CheckpointPolicy.interval { #expect(try put("small-\(index)") != nil) }
        #expect(CheckpointPolicy.fileSize(path + "-wal") > CheckpointPolicy.limitBytes)
        writerRelease.signal()
        // The writer thread runs the checkpoint it was handed; a write queued behind it is
        // answered after it.
        let after = Answers()
        after.enqueue(0, on: database) {}
        _ = after.wait(for: 1)
        #expect(CheckpointPolicy.fileSize(path + "-wal") < CheckpointPolicy.limitBytes)
        #expect(try database.checkInvariants().violations.isEmpty)
    }
}
