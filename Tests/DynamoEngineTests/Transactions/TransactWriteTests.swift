import DynamoAPI
@testable import DynamoEngine
import Testing

/// TransactWriteItems at the engine: all or nothing, cancellation reasons in action order, the
/// request-level refusals, and what a `ClientRequestToken` changes.
@Suite struct TransactWriteTests {
    static func request(_ actions: [String], token: String? = nil) throws -> TransactWriteItemsInput {
        let tokenMember = token.map { #""ClientRequestToken":"\#($0)","# } ?? ""
        return try TransactWriteItemsInput.decodeRequest(
            JSONValue(parsing: #"{\#(tokenMember)"TransactItems":[\#(actions.joined(separator: ","))]}"#))
    }

    /// `Things` holding `b` (n = 1) and `c` (n = 2).
    static func database() throws -> Database {
        let database = try BatchWriteTests.database()
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("b"), "n": .n(DynamoNumber(1))]))
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("c"), "n": .n(DynamoNumber(2))]))
        return database
    }

    static let putA = #"{"Put":{"TableName":"Things","Item":{"pk":{"S":"a"}}}}"#
    static let incrementB =
        #"{"Update":{"TableName":"Things","Key":{"pk":{"S":"b"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}"#
    static let deleteC = #"{"Delete":{"TableName":"Things","Key":{"pk":{"S":"c"}}}}"#
    static let deleteMissing = #"{"Delete":{"TableName":"Things","Key":{"pk":{"S":"x"}}}}"#
    static let putOther = #"{"Put":{"TableName":"Others","Item":{"pk":{"S":"o"}}}}"#

    /// A ConditionCheck on `key` of Things requiring `n = value`.
    static func check(_ key: String, n value: Int, returnOld: Bool = false) -> String {
        let returnValues = returnOld ? #","ReturnValuesOnConditionCheckFailure":"ALL_OLD""# : ""
        return
            #"{"ConditionCheck":{"TableName":"Things","Key":{"pk":{"S":"\#(key)"}},"ConditionExpression":"n = :n","ExpressionAttributeValues":{":n":{"N":"\#(value)"}}\#(returnValues)}}"#
    }

    /// Things' and Others' items, by table and key.
    static func contents(_ database: Database) throws -> [String: [String: Item]] {
        var contents: [String: [String: Item]] = [:]
        for table in ["Things", "Others"] {
            for key in ["a", "b", "c", "o"] {
                contents[table, default: [:]][key] = try BatchWriteTests.stored(database, table, key)
            }
        }
        return contents
    }

    @Test("one failing condition cancels every action; the reasons follow the actions' order")
    func allOrNothing() throws {
        let database = try Self.database()
        let before = try Self.contents(database)
        let error = try #require(throws: DynamoError.self) {
            try database.transactWriteItems(
                Self.request([Self.putA, Self.incrementB, Self.check("c", n: 99, returnOld: true), Self.deleteMissing, Self.putOther]),
                now: 1_700_000_000)
        }
        #expect(error.code == .transactionCanceled)
        #expect(
            error.message
                == "Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ConditionalCheckFailed, None, None]")
        #expect(
            error.cancellationReasons == [
                CancellationReason(code: "None"), CancellationReason(code: "None"),
                CancellationReason(
                    item: ["pk": .s("c"), "n": .n(DynamoNumber(2))], code: "ConditionalCheckFailed", message: "The conditional request failed"),
                CancellationReason(code: "None"), CancellationReason(code: "None"),
            ])
        #expect(try Self.contents(database) == before)
        #expect(try database.checkInvariants().violations == [])
    }

    @Test("every failing condition has its reason at its position; ALL_OLD only where asked")
    func severalFailures() throws {
        let database = try Self.database()
        let error = try #require(throws: DynamoError.self) {
            try database.transactWriteItems(
                Self.request([Self.check("b", n: 5), Self.putA, Self.check("c", n: 7, returnOld: true)]), now: 1_700_000_000)
        }
        #expect(
            error.message
                == "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, ConditionalCheckFailed]"
        )
        #expect(error.cancellationReasons?.map(\.code) == ["ConditionalCheckFailed", "None", "ConditionalCheckFailed"])
        #expect(error.cancellationReasons?[0].item == nil)
        #expect(error.cancellationReasons?[2].item == ["pk": .s("c"), "n": .n(DynamoNumber(2))])
        #expect(try BatchWriteTests.stored(database, "Things", "a") == nil)
    }

    @Test("when every condition holds every action applies, at twice the plain capacity")
    func commits() throws {
        let database = try Self.database()
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("d"), "n": .n(DynamoNumber(4))]))
        let result = try database.transactWriteItems(
            Self.request([Self.putA, Self.incrementB, Self.deleteC, Self.check("d", n: 4), Self.putOther]), now: 1_700_000_000)
        let contents = try Self.contents(database)
        #expect(contents["Things"] == ["a": ["pk": .s("a")], "b": ["pk": .s("b"), "n": .n(DynamoNumber(2))]])
        #expect(contents["Others"] == ["o": ["pk": .s("o")]])
        // Three writes (2 units each) and a strongly consistent check read (2 units) on Things.
        var things = ConsumedUnits(table: 8)
        var others = ConsumedUnits(table: 2)
        things.reportedAs = .write
        others.reportedAs = .write
        #expect(result.capacity == ["Things": things, "Others": others])
    }

    @Test("two actions on one item, or more than 100 actions, are refused before anything is read")
    func requestRefusals() throws {
        let database = try Self.database()
        #expect(throws: DynamoError.validation("Transaction request cannot include multiple operations on one item")) {
            try database.transactWriteItems(Self.request([Self.putA, Self.incrementB, Self.check("b", n: 1)]), now: 1_700_000_000)
        }
        let puts = (0..<101).map { #"{"Put":{"TableName":"Things","Item":{"pk":{"S":"m\#($0)"}}}}"# }
        // Built past the decoder, whose own limit check would answer first.
        let input = TransactWriteItemsInput(
            transactItems: try Self.request(Array(puts[..<60])).transactItems + Self.request(Array(puts[60...])).transactItems)
        #expect(throws: DynamoError.validation("Member must have length less than or equal to 100")) {
            try database.transactWriteItems(input, now: 1_700_000_000)
        }
        #expect(try BatchWriteTests.stored(database, "Things", "a") == nil)
        #expect(try database.describeTable(named: "Things").itemCount == 2)
    }

    @Test("a token answers a retry from the first call for ten minutes, without writing again")
    func idempotencyToken() throws {
        let database = try Self.database()
        let request = try Self.request([Self.incrementB], token: "t-1")
        let first = try database.transactWriteItems(request, now: 1_700_000_000)
        // A retry within the lifetime returns the first result and does not increment again; it
        // is charged as the transactional read of the stored item, as DynamoDB reports a replay.
        let retry = try database.transactWriteItems(request, now: 1_700_000_000 + 599)
        #expect(first.capacity["Things"]?.reportedAs == .write)
        var read = ConsumedUnits(table: 2)
        read.reportedAs = .read
        #expect(retry.capacity == ["Things": read])
        #expect(try BatchWriteTests.stored(database, "Things", "b")?["n"] == .n(DynamoNumber(2)))
        // Another request with the token is refused; the stored item stays.
        #expect(
            throws: DynamoError(.idempotentParameterMismatch, "Request with the same client token has already been used with different parameters")
        ) {
            try database.transactWriteItems(Self.request([Self.putA], token: "t-1"), now: 1_700_000_000 + 1)
        }
        #expect(try BatchWriteTests.stored(database, "Things", "a") == nil)
        // Ten minutes on, the token is forgotten: the same request writes again.
        _ = try database.transactWriteItems(request, now: 1_700_000_000 + 600)
        #expect(try BatchWriteTests.stored(database, "Things", "b")?["n"] == .n(DynamoNumber(3)))
    }

    @Test("a cancelled request's token is not remembered: fixing the data and retrying writes")
    func cancelledTokenNotRecorded() throws {
        let database = try Self.database()
        let request = try Self.request([Self.check("b", n: 2), Self.putA], token: "t-2")
        #expect(throws: DynamoError.self) { try database.transactWriteItems(request, now: 1_700_000_000) }
        _ = try database.putItem(PutItemInput(tableName: "Things", item: ["pk": .s("b"), "n": .n(DynamoNumber(2))]))
        _ = try database.transactWriteItems(request, now: 1_700_000_001)
        #expect(try BatchWriteTests.stored(database, "Things", "a") == ["pk": .s("a")])
    }
}
