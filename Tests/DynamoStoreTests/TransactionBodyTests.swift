import DynamoAPI
import Testing

@testable import DynamoStore

/// A transaction's request is put together from its actions' JSON, encoded once when they were
/// sized: it must be the `TransactWriteItemsInput` the actions make, with `TOTAL` capacity and
/// a fresh idempotency token per request.
@Suite struct TransactionBodyTests {
    private func action(_ id: String, _ text: String) -> WriteAction {
        let put = Put(item: ["id": .s(id), "text": .s(text), "n": .n(DynamoNumber(7))], tableName: "Notes")
        return WriteAction(
            object: ManagedObject(entity: EntityDescription("Note", hashKey: "id", attributes: [.init("id", .string)])),
            kind: .insert, action: TransactWriteItem(put: put), storedItem: nil)
    }

    @Test func theBodyIsTheInputOfTheActions() throws {
        // A quote, a backslash and a non-ASCII character, so the actions' own escaping is kept.
        let actions = [action("a", "plain"), action("b", #"say "hi" \ ünïcode"#)]
        let body = ObjectContext.transactWriteItemsBody(actions)
        let input = try TransactWriteItemsInput(json: JSONValue(parsing: body))
        #expect(input.transactItems == actions.map(\.action))
        #expect(input.returnConsumedCapacity == .total)
        let token = try #require(input.clientRequestToken)
        #expect(!token.isEmpty)
        let again = try TransactWriteItemsInput(json: JSONValue(parsing: ObjectContext.transactWriteItemsBody(actions)))
        #expect(again.clientRequestToken != token)
        #expect(actions.allSatisfy { $0.size == $0.action.jsonBytes.count })
    }
}
