import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Testing

/// TransactWriteItems with a `ClientRequestToken`: a retry of the very same request is answered
/// from the first call, whatever order its maps and sets arrive in; a changed request is refused.
@Suite("Transaction idempotency")
struct IdempotencyTests {
    /// Hundreds of retries of requests whose items have many attributes of every type, each retry
    /// written with its members, set elements and number spellings in another (seeded) order.
    @Test("a retried request always matches its first call", arguments: [UInt64(17), 2026])
    func retriesMatch(seed: UInt64) throws {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        var random = SeededRandom(seed: seed)
        for round in 0..<150 {
            let actions = [
                RandomValues.item(key: "put-\(round)", using: &random),
                RandomValues.item(key: "other-\(round)", using: &random),
            ]
            let token = "token-\(seed)-\(round)"
            let first = try Self.request(actions, token: token, using: &random)
            _ = try database.transactWriteItems(first, now: 1_700_000_000)
            // The actions are guarded by attribute_not_exists(pk): a retry that wrote again
            // would be cancelled, so a successful retry proves it was answered from the token.
            for _ in 0..<2 {
                let retry = try Self.request(actions, token: token, using: &random)
                _ = try database.transactWriteItems(retry, now: 1_700_000_001)
            }
            var changed = actions
            changed[1]["extra"] = .s("changed")
            let different = try Self.request(changed, token: token, using: &random)
            #expect(
                throws: DynamoError(
                    .idempotentParameterMismatch,
                    "Request with the same client token has already been used with different parameters")
            ) {
                try database.transactWriteItems(different, now: 1_700_000_002)
            }
        }
    }

    /// The request as a client would send it, decoded as the server decodes it.
    static func request(
        _ items: [Item], token: String,
        using random: inout SeededRandom
    ) throws -> TransactWriteItemsInput {
        let puts = items.map { item in
            #"{"Put":{"TableName":"Things","ConditionExpression":"attribute_not_exists(pk)","Item":"#
                + RandomValues.wireJSON(item: item, using: &random) + "}}"
        }
        let body = #"{"ClientRequestToken":"\#(token)","TransactItems":[\#(puts.joined(separator: ","))]}"#
        return try TransactWriteItemsInput.decodeRequest(JSONValue(parsing: body))
    }
}
