import Testing
@testable import DynamoAPI

// Both wordings of DynamoDB's 2026 validation rollout, asserted against the four-region capture
// of 2026-06-09 (nubo-db/dynamodb-conformance captures/2026-06-09-validation-rewording.json:
// eu-west-2 and eu-central-1 answered in the 2026 words, us-east-1 and ap-southeast-2 in the
// 2025 ones) and the 2026-10-07 sweep (paritysuite/dynamodb-conformance, where eu-south-2 and
// me-central-1 still answered in the 2025 words).

@Suite struct ErrorWordingTests {
    /// The error decoding `body` as `T` throws, in `wording`'s form.
    private func refusal<T: DynamoShape>(_ type: T.Type, _ body: String, _ wording: ErrorWording) throws -> String? {
        let json = try JSONValue(parsing: body)
        do {
            _ = try T.decodeRequest(json)
            return nil
        } catch {
            return error.worded(wording).message
        }
    }

    @Test("an empty TableName: alone and value-less in 2026, listed after ReturnValues in 2025")
    func emptyTableName() throws {
        let body = #"{"TableName":"","ReturnValues":"INVALID","Item":{}}"#
        #expect(
            try refusal(PutItemInput.self, body, .v2026)
                == "1 validation error detected: Value at 'TableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
        )
        #expect(
            try refusal(PutItemInput.self, body, .v2025)
                == "2 validation errors detected: Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
        )
        #expect(
            try refusal(DeleteItemInput.self, #"{"TableName":"","Key":{}}"#, .v2025)
                == "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
        )
    }

    @Test("ReturnValues: a bare enum violation in 2026, the model's value set at 'returnValues' in 2025, in each wording's order")
    func returnValues() throws {
        let delete = #"{"TableName":"t","Key":{"pk":{"S":"a"}},"ReturnValues":"INVALID","ReturnConsumedCapacity":"INVALID"}"#
        #expect(
            try refusal(DeleteItemInput.self, delete, .v2026)
                == "2 validation errors detected: Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]"
        )
        #expect(
            try refusal(DeleteItemInput.self, delete, .v2025)
                == "2 validation errors detected: Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
        )
        let update = #"{"TableName":"t","Key":{"pk":{"S":"a"}},"ReturnValues":"INVALID","ReturnConsumedCapacity":"INVALID"}"#
        #expect(
            try refusal(UpdateItemInput.self, update, .v2026)
                == "1 validation error detected: Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]"
        )
        #expect(
            try refusal(UpdateItemInput.self, update, .v2025)
                == "2 validation errors detected: Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
        )
    }

    @Test("attribute values of PutItem: enveloped in 2026, bare in 2025; duplicates quoted only in 2026; NULL false refused in both")
    func attributeValues() throws {
        let cases: [(String, String, String)] = [
            (
                #"{"TableName":"t","Item":{"pk":{"S":"a"},"s":{"SS":[]}}}"#,
                "1 validation error detected: One or more parameter values were invalid: An string set  may not be empty",
                "One or more parameter values were invalid: An string set  may not be empty"
            ),
            (
                #"{"TableName":"t","Item":{"pk":{"S":"a"},"s":{"SS":["a","a"]}}}"#,
                #"1 validation error detected: One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates."#,
                "One or more parameter values were invalid: Input collection [a, a] contains duplicates."
            ),
            (
                // Refused at any depth in both wordings: every region did on 2026-10-07
                // (paritysuite captures/2026-10-07-batch-empty-request-items.json, nullRoundTrip).
                #"{"TableName":"t","Item":{"pk":{"S":"a"},"m":{"M":{"l":{"L":[{"NULL":false}]}}}}}"#,
                "1 validation error detected: One or more parameter values were invalid: Null attribute value types must have the value of true",
                "One or more parameter values were invalid: Null attribute value types must have the value of true"
            ),
        ]
        for (body, v2026, v2025) in cases {
            #expect(try refusal(PutItemInput.self, body, .v2026) == v2026)
            #expect(try refusal(PutItemInput.self, body, .v2025) == v2025)
        }
    }

    @Test("an invalid value in ExpressionAttributeValues: PutItem's 2026 validator drops the wrapper, Query keeps it in both")
    func expressionAttributeValues() throws {
        let put = #"{"TableName":"t","Item":{"pk":{"S":"a"}},"ConditionExpression":"a = :v","ExpressionAttributeValues":{":v":{"SS":[]}}}"#
        #expect(
            try refusal(PutItemInput.self, put, .v2026)
                == "1 validation error detected: One or more parameter values were invalid: An string set  may not be empty")
        #expect(
            try refusal(PutItemInput.self, put, .v2025)
                == "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"
        )
        let query = #"{"TableName":"t","KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"SS":["a","a"]}}}"#
        #expect(
            try refusal(QueryInput.self, query, .v2026)
                == #"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates. for key :v"#
        )
        #expect(
            try refusal(QueryInput.self, query, .v2025)
                == "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection [a, a] contains duplicates. for key :v"
        )
    }

    @Test("a message both wordings agree on has one form")
    func unchangedMessages() throws {
        let body = #"{"TableName":"bad table!@#","Item":{"pk":{"S":"test"}}}"#
        let expected =
            "1 validation error detected: Value 'bad table!@#' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
        for wording in ErrorWording.allCases { #expect(try refusal(PutItemInput.self, body, wording) == expected) }
        #expect(DynamoError.validation("x", v2025: "x").message2025 == nil)
    }

    @Test("the catalog's rollout messages each have two forms, and the 2025 form has no 2026 envelope or casing")
    func catalogSamplesHaveTwoForms() {
        for sample in AttributeValueMessages.rolloutSamples + [AttributeValueMessages.emptySet("string").inValidationEnvelope] {
            let v2025 = sample.worded(.v2025).message ?? ""
            #expect(sample.message2025 != nil && v2025 != sample.message, "one form only: \(sample)")
            #expect(!v2025.hasPrefix("1 validation error detected: "), "2026 envelope in 2025: \(v2025)")
        }
    }
}
