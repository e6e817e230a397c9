import DynamoAPI
@testable import DynamoEngine
import DynamoExpressions
import Testing

/// The messages DynamoDB's 2026 rollout changed, made by the engine and the expression module,
/// in both wordings exactly (the four-region capture of 2026-06-09, nubo-db/dynamodb-conformance
/// captures/2026-06-09-validation-rewording.json: eu-west-2's answers and us-east-1's), and the
/// catalogs' rollout samples each in two forms.
@Suite struct ErrorWordingCatalogTests {
    static func database() throws -> Database {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        return database
    }

    /// The refusal of `run`, in both wordings.
    static func refusal(_ run: () throws -> Void) -> (v2026: String?, v2025: String?) {
        do {
            try run()
            return (nil, nil)
        } catch let error as DynamoError {
            return (error.worded(.v2026).message, error.worded(.v2025).message)
        } catch {
            return ("\(error)", "\(error)")
        }
    }

    @Test("PutItem's and UpdateItem's bespoke messages: enveloped in 2026, bare in 2025")
    func singleItemWrites() throws {
        let database = try Self.database()
        let put = Self.refusal {
            _ = try database.putItem(
                PutItemInput(
                    tableName: "Things", item: ["pk": .s("a")], conditionExpression: "((attribute_exists(pk)))"))
        }
        #expect(put.v2026 == "1 validation error detected: Invalid ConditionExpression: The expression has redundant parentheses;")
        #expect(put.v2025 == "Invalid ConditionExpression: The expression has redundant parentheses;")
        let eav = Self.refusal {
            _ = try database.putItem(
                PutItemInput(tableName: "Things", item: ["pk": .s("a")], expressionAttributeValues: [":v": .s("x")]))
        }
        #expect(eav.v2026 == "1 validation error detected: ExpressionAttributeValues can only be specified when using expressions")
        #expect(eav.v2025 == "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null")
        let unused = Self.refusal {
            _ = try database.updateItem(
                UpdateItemInput(
                    tableName: "Things", key: ["pk": .s("a")], updateExpression: "SET a = :v",
                    expressionAttributeValues: [":v": .s("x"), ":unused": .s("y")]))
        }
        #expect(unused.v2026 == "1 validation error detected: Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}")
        #expect(unused.v2025 == "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}")
        // A check that needs the table stays bare in both.
        let key = Self.refusal {
            _ = try database.updateItem(
                UpdateItemInput(
                    tableName: "Things", key: ["pk": .s("a")], updateExpression: "SET pk = :v",
                    expressionAttributeValues: [":v": .s("x")]))
        }
        let keyMessage = "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"
        #expect(key.v2026 == keyMessage)
        #expect(key.v2025 == keyMessage)
    }

    @Test("Query's and Scan's Select rules: enveloped in 2026, bare in 2025")
    func querySelect() throws {
        let database = try Self.database()
        let query = Self.refusal {
            _ = try database.query(
                QueryInput(
                    tableName: "Things", select: .init(rawValue: "ALL_PROJECTED_ATTRIBUTES"),
                    keyConditionExpression: "pk = :v", expressionAttributeValues: [":v": .s("a")]))
        }
        let sentence = "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"
        #expect(query.v2026 == "1 validation error detected: " + sentence)
        #expect(query.v2025 == sentence)
        let scan = Self.refusal {
            _ = try database.scan(ScanInput(tableName: "Things", select: .init(rawValue: "ALL_PROJECTED_ATTRIBUTES")))
        }
        #expect(scan.v2026 == "1 validation error detected: " + sentence)
        #expect(scan.v2025 == sentence)
    }

    /// Scan's later wave (paritysuite registry/splits.json scan-segment-out-of-range-message and
    /// scan-bad-start-key-message: eu-west-2 from 2026-09-26, 28 regions on the older forms).
    @Test("Scan's Segment and start-key sentences: short in 2026, with their details in 2025")
    func scanParameterChecks() throws {
        let database = try Self.database()
        let segment = Self.refusal {
            _ = try database.scan(ScanInput(tableName: "Things", totalSegments: 5, segment: 5))
        }
        #expect(segment.v2026 == "The Segment parameter is zero-based and must be less than parameter TotalSegments")
        #expect(
            segment.v2025
                == "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is not less than TotalSegments: 5"
        )
        let start = Self.refusal {
            _ = try database.scan(ScanInput(tableName: "Things", exclusiveStartKey: ["nope": .s("x")]))
        }
        #expect(start.v2026 == "The provided starting key is invalid")
        #expect(start.v2025 == "The provided starting key is invalid: The provided key element does not match the schema")
    }

    @Test("every catalog's rollout samples have two forms, the 2025 one without the 2026 envelope or casing")
    func catalogsHaveBothForms() {
        let samples =
            AttributeValueMessages.rolloutSamples + ParameterMessages.rolloutSamples + EngineMessages.rolloutSamples
        #expect(!samples.isEmpty)
        for sample in samples {
            let v2025 = sample.worded(.v2025).message ?? ""
            #expect(sample.message2025 != nil, "only one form: \(sample)")
            #expect(v2025 != sample.message, "the same text twice: \(sample)")
            #expect(!v2025.hasPrefix("1 validation error detected: "), "2026 envelope in 2025: \(v2025)")
            #expect(!v2025.contains("Value at '"), "2026 value-less form in 2025: \(v2025)")
        }
    }
}
