import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Testing

/// `IdempotencyTokens` against a model of DynamoDB's rule (a token is remembered with its
/// request for ten minutes after its first use): random uses, retries, changed requests and clock
/// jumps, with the number of tokens held checked after every step, so expired ones never pile up.
@Suite struct IdempotencyTokensTests {
    static let result = TransactWriteResult(capacity: [:])

    @Test(arguments: [UInt64(1), 42, 2026])
    func behavesAsTenMinutesOfMemory(seed: UInt64) throws {
        let tokens = IdempotencyTokens()
        var random = SeededRandom(seed: seed)
        var model: [String: (request: Int, recorded: Double)] = [:]
        var now = 1_700_000_000.0
        let requests = try (0..<3).map { number in
            let body =
                #"{"TransactItems":[{"ConditionCheck":{"TableName":"T","Key":{"pk":{"S":"k\#(number)"}},"ConditionExpression":"attribute_exists(pk)"}}]}"#
            return CanonicalForm(try TransactWriteItemsInput.decodeRequest(JSONValue(parsing: body)).transactItems)
        }
        for _ in 0..<4_000 {
            now += Double(Int.random(in: 0..<40, using: &random))
            let token = "t\(Int.random(in: 0..<300, using: &random))"
            let request = Int.random(in: 0..<3, using: &random)
            model = model.filter { now - $0.value.recorded < IdempotencyTokens.lifetime }
            var ran = false
            let outcome = Result {
                try tokens.run(token: token, request: requests[request], now: now) {
                    ran = true; return Self.result
                }
            }
            if let known = model[token] {
                #expect(!ran)
                if known.request == request {
                    #expect((try? outcome.get()) != nil)
                } else {
                    #expect(throws: DynamoError.self) { try outcome.get() }
                }
            } else {
                #expect(ran)
                model[token] = (request, now)
            }
            #expect(tokens.count == model.count)
        }
    }
}
