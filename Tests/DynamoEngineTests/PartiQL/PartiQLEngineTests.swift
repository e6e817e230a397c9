import DynamoAPI
@testable import DynamoEngine
import Testing

@Suite("PartiQL in the engine")
struct PartiQLEngineTests {
    private func run(
        _ database: Database, _ statement: String, _ parameters: [AttributeValue]? = nil,
        limit: Int? = nil, nextToken: String? = nil
    ) throws -> ExecuteStatementOutput {
        try database.executeStatement(
            ExecuteStatementInput(
                statement: statement, parameters: parameters,
                nextToken: nextToken, limit: limit),
            now: database.clock.now())
    }

    @Test("a NextToken expires after an hour of the server's clock")
    func nextTokenExpires() throws {
        let clock = ServerClock(startingAt: 1_767_225_600)
        let database = try Database(path: nil, region: "us-east-1", clock: clock)
        try DatabaseTests.makeTable(database)
        for key in ["a", "b", "c"] {
            _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s(key)]))
        }
        let first = try run(database, "SELECT * FROM Things", limit: 1)
        let token = try #require(first.nextToken)
        _ = try clock.advance(by: 3500)
        #expect(try run(database, "SELECT * FROM Things", limit: 1, nextToken: token).items?.count == 1)
        _ = try clock.advance(by: 200)
        #expect(throws: DynamoError.validation("Given NextToken has already expired")) {
            _ = try run(database, "SELECT * FROM Things", limit: 1, nextToken: token)
        }
    }

    /// What the server may run on an event loop: a SELECT of one item by its whole table key,
    /// told from the statement and the key schema without reading an item.
    @Test("readsOneItemByKey tells key lookups from everything else, reading nothing")
    func readsOneItemByKey() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database, sortKey: true)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "sk": .n(DynamoNumber(1)), "n": .n(DynamoNumber(5))]))
        func lookup(_ statement: String, _ parameters: [AttributeValue]? = nil) -> Bool {
            database.readsOneItemByKey(ExecuteStatementInput(statement: statement, parameters: parameters))
        }
        #expect(lookup(#"SELECT * FROM "Things" WHERE pk = ? AND sk = ?"#, [.s("a"), .n(DynamoNumber(1))]))
        #expect(lookup("SELECT n FROM Things WHERE pk = 'a' AND sk = 2"))
        #expect(lookup("SELECT n FROM Things WHERE pk = 'a' AND sk = 1 AND n = 5"))
        for statement in [
            "SELECT * FROM Things WHERE pk = 'a'", "SELECT * FROM Things", "SELECT * FROM Things WHERE n = 5",
            "INSERT INTO Things VALUE {'pk': 'b', 'sk': 1}", "UPDATE Things SET n = 6 WHERE pk = 'a' AND sk = 1",
            "DELETE FROM Things WHERE pk = 'a' AND sk = 1", "SELECT * FROM Missing WHERE pk = 'a' AND sk = 1",
            "SELECT * FROM",
        ] {
            #expect(!lookup(statement), "\(statement)")
        }
        // Nothing was read or written: the item is as it was.
        #expect(try run(database, "SELECT n FROM Things WHERE pk = 'a'").items == [["n": .n(DynamoNumber(5))]])
    }

    @Test("writes go through the engine's item operations: statistics follow them")
    func writesKeepStatistics() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database, sortKey: true)
        _ = try run(database, "INSERT INTO Things VALUE {'pk': 'a', 'sk': 1, 'n': 1}")
        _ = try run(database, "INSERT INTO Things VALUE {'pk': ?, 'sk': ?}", [.s("a"), .n(DynamoNumber(2))])
        let table = try database.table(named: "Things")
        #expect(try database.statistics(of: table).itemCount == 2)
        let updated = try run(database, "UPDATE Things SET n = n + 1 WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *")
        #expect(updated.items == [["n": .n(DynamoNumber(2))]])
        _ = try run(database, "DELETE FROM Things WHERE pk = 'a' AND sk = 2")
        #expect(try database.statistics(of: table).itemCount == 1)
        #expect(throws: DynamoError.self) { _ = try run(database, "INSERT INTO Things VALUE {'pk': 'a', 'sk': 1}") }
    }

    /// Every Limit over partitions read by `IN`, each page followed by its NextToken: each item
    /// comes back exactly once, in partition then sort-key order.
    @Test("paging over IN partitions returns every item once", arguments: 1...7)
    func pagingOverPartitions(limit: Int) throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database, sortKey: true)
        for partition in ["a", "b", "c"] {
            for sort in 0..<(partition == "b" ? 0 : 3) {
                _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s(partition), "sk": .n(DynamoNumber(sort))]))
            }
        }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try run(
                database, "SELECT pk, sk FROM Things WHERE pk IN ['c', 'b', 'a'] ORDER BY pk DESC",
                limit: limit, nextToken: token)
            for item in page.items ?? [] {
                guard case .s(let pk)? = item["pk"], case .n(let sk)? = item["sk"] else { continue }
                seen.append("\(pk)\(sk)")
            }
            #expect((page.items ?? []).count <= limit)
            token = page.nextToken
            pages += 1
        } while token != nil && pages < 20
        #expect(seen == ["c0", "c1", "c2", "a0", "a1", "a2"])
    }

    @Test("a transaction of writes is one TransactWriteItems; reads are one TransactGetItems")
    func transactions() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        let written = try database.executeTransaction(
            ExecuteTransactionInput(transactStatements: [
                ParameterizedStatement(statement: "INSERT INTO Things VALUE {'pk': 'x'}"),
                ParameterizedStatement(statement: "INSERT INTO Things VALUE {'pk': 'y', 'v': 1}"),
            ]), now: 1_700_000_000)
        // Writes answer an empty Responses, not one entry per statement (measured, 2026-10).
        #expect(written.responses == [])
        let read = try database.executeTransaction(
            ExecuteTransactionInput(transactStatements: [
                ParameterizedStatement(statement: "SELECT v FROM Things WHERE pk = 'y'"),
                ParameterizedStatement(statement: "SELECT * FROM Things WHERE pk = 'z'"),
            ]), now: 1_700_000_000)
        #expect(read.responses == [ItemResponse(item: ["v": .n(DynamoNumber(1))]), ItemResponse()])
        do {
            _ = try database.executeTransaction(
                ExecuteTransactionInput(transactStatements: [
                    ParameterizedStatement(statement: "DELETE FROM Things WHERE pk = 'x'"),
                    ParameterizedStatement(statement: "INSERT INTO Things VALUE {'pk': 'y'}"),
                ]), now: 1_700_000_000)
            Issue.record("the duplicate INSERT should cancel the transaction")
        } catch let error as DynamoError {
            #expect(error.cancellationReasons?.map(\.code) == ["None", "DuplicateItem"])
        }
        #expect(try run(database, "SELECT * FROM Things WHERE pk = 'x'").items?.count == 1)
    }

    /// A batch honours each member's RETURNING; its SELECTs name one item by its key alone.
    @Test("a batch returns what RETURNING asks for and refuses a SELECT with a condition")
    func batchReturning() throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("a"), "v": .n(DynamoNumber(1))]))
        let output = try database.batchExecuteStatement(
            BatchExecuteStatementInput(statements: [
                BatchStatementRequest(statement: "UPDATE Things SET v = 2 WHERE pk = 'a' RETURNING MODIFIED OLD *"),
                BatchStatementRequest(statement: "UPDATE Things REMOVE w WHERE pk = 'a' RETURNING MODIFIED NEW *"),
                BatchStatementRequest(statement: "DELETE FROM Things WHERE pk = 'a' RETURNING ALL OLD *"),
            ]))
        #expect(output.responses?.map(\.item) == [["v": .n(DynamoNumber(1))], nil, ["pk": .s("a"), "v": .n(DynamoNumber(2))]])
        let reads = try database.batchExecuteStatement(
            BatchExecuteStatementInput(statements: [
                BatchStatementRequest(statement: "SELECT * FROM Things WHERE pk = 'a' AND v = 2")
            ]))
        #expect(
            reads.responses?.first?.error?.message
                == "Select statements within BatchExecuteStatement must specify the primary key in the where clause.")
    }

    /// A seeded random mix of PartiQL writes (single, batched, transactional) leaves storage that
    /// passes every invariant: the writes went through the ordinary write paths.
    @Test("random PartiQL writes keep the storage invariants", arguments: [5, 6, 7] as [UInt64])
    func randomWritesKeepInvariants(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database, sortKey: true)
        func key() -> String { "pk = '\(["a", "b"].randomElement(using: &random)!)' AND sk = \(Int.random(in: 0..<4, using: &random))" }
        for _ in 0..<200 {
            let n = Int.random(in: -9...9, using: &random)
            let statements = [
                "INSERT INTO Things VALUE {'pk': '\(["a", "b"].randomElement(using: &random)!)', 'sk': \(Int.random(in: 0..<4, using: &random)), 'n': \(n)}",
                "UPDATE Things SET n = n + \(n) WHERE \(key())",
                "UPDATE Things SET l = list_append(if_not_exists(l, []), [\(n)]) REMOVE n WHERE \(key()) AND n > 0",
                "DELETE FROM Things WHERE \(key())",
            ]
            let statement = statements.randomElement(using: &random)!
            do {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: _ = try run(database, statement)
                case 1:
                    _ = try database.batchExecuteStatement(
                        BatchExecuteStatementInput(statements: [
                            BatchStatementRequest(statement: statement), BatchStatementRequest(statement: statements[3]),
                        ]))
                default:
                    _ = try database.executeTransaction(
                        ExecuteTransactionInput(transactStatements: [
                            ParameterizedStatement(statement: statement)
                        ]), now: database.clock.now())
                }
            } catch let error as DynamoError {
                #expect(
                    [.validation, .conditionalCheckFailed, .transactionCanceled].contains(error.code)
                        || error.code.rawValue == "DuplicateItemException", "\(statement): \(error)")
            }
        }
        #expect(try database.checkInvariants().violations == [])
    }
}
