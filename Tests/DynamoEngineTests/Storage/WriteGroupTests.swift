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
}
