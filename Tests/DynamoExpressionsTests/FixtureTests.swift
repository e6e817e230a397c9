import DynamoAPI
import DynamoExpressions
import Foundation
import Testing

/// Cases kept as data in `fixtures/expressions/*.json`: each has an `operation`, the expression
/// parameters, an optional `item`, and `expect` with one of `error` (the exact message),
/// `condition` (true/false), `item` (after an update) or `projected` (after a projection).
@Suite("Expression fixture corpus")
struct FixtureTests {
    struct Case: CustomStringConvertible, Sendable {
        var file: String
        var json: JSONValue
        var description: String { "\(file): \(json["name"]?.stringValue ?? "?")" }
    }

    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/expressions")

    static let cases: [Case] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().flatMap { file -> [Case] in
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) ?? Data()
            guard case .array(let entries) = try? JSONValue(parsing: Array(data)) else { return [] }
            return entries.map { Case(file: file, json: $0) }
        }
    }()

    @Test("the corpus is present")
    func present() {
        #expect(Self.cases.count >= 40)
    }

    @Test("each case", arguments: cases)
    func run(_ testCase: Case) throws {
        let json = testCase.json
        let operations: [String: ExpressionOperation] = [
            "GetItem": .getItem, "PutItem": .putItem, "DeleteItem": .deleteItem,
            "UpdateItem": .updateItem, "Query": .query, "Scan": .scan,
        ]
        var input = ExpressionInput(operations[json["operation"]?.stringValue ?? "PutItem"] ?? .putItem)
        input.conditionExpression = json["ConditionExpression"]?.stringValue
        input.updateExpression = json["UpdateExpression"]?.stringValue
        input.projectionExpression = json["ProjectionExpression"]?.stringValue
        input.filterExpression = json["FilterExpression"]?.stringValue
        input.keyConditionExpression = json["KeyConditionExpression"]?.stringValue
        if case .object(let names)? = json["ExpressionAttributeNames"] {
            input.names = names.compactMapValues(\.stringValue)
        }
        if let values = json["ExpressionAttributeValues"] { input.values = try AttributeValue.decodeItem(values) }
        let item = try json["item"].map { try AttributeValue.decodeItem($0) } ?? [:]
        let expect = json["expect"]
        do throws(DynamoError) {
            let compiled = try ExpressionCompiler.compile(input)
            if let message = expect?["error"]?.stringValue {
                // The error may come when the compiled expression runs.
                if let update = compiled.update {
                    _ = try update.apply(to: item)
                }
                Issue.record("expected error \(message)")
                return
            }
            if case .bool(let holds)? = expect?["condition"] {
                let predicate = compiled.condition ?? compiled.filter
                #expect(predicate?.evaluate(item) == holds)
            }
            if let after = expect?["item"] {
                #expect(try compiled.update?.apply(to: item) == AttributeValue.decodeItem(after))
            }
            if let projected = expect?["projected"] {
                #expect(try compiled.projection?.apply(to: item) == AttributeValue.decodeItem(projected))
            }
        } catch {
            #expect(error.message == expect?["error"]?.stringValue, "\(testCase)")
        }
    }
}
