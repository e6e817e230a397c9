import DynamoAPI

/// Shape decoding: a request body decoded as the input shape of the operation its corpus file
/// names (and, one time in eight, of another operation), as the server does before dispatch.
/// Inputs are `<Operation>\n<body>`.
struct ShapeTarget: FuzzTarget {
    let name = "shapes"
    let dictionary = [
        "{", "}", "[", "]", ":", ",", "\"", "null", "true", "0", "-1", "1e400", "\"\"",
        "{\"S\":\"x\"}", "{\"N\":\"1\"}", "{\"B\":\"AA==\"}", "{\"SS\":[]}", "{\"NS\":[\"1\",\"1\"]}", "{\"BS\":[\"\"]}",
        "{\"M\":{}}", "{\"L\":[]}", "{\"NULL\":false}", "{\"BOOL\":1}", "{\"S\":\"a\",\"N\":\"1\"}",
        "\"TableName\"", "\"Key\"", "\"Item\"", "\"IndexName\"", "\"Limit\"", "\"ExclusiveStartKey\"",
        "\"ExpressionAttributeNames\"", "\"ExpressionAttributeValues\"", "\"ReturnValues\"", "\"Select\"",
        "\"KeySchema\"", "\"AttributeDefinitions\"", "\"ProvisionedThroughput\"", "\"RequestItems\"",
        "\"TransactItems\"", "\"Statement\"", "\"Parameters\"", "\"Segment\"", "\"TotalSegments\"",
        "\"ALL_NEW\"", "\"HASH\"", "\"RANGE\"", "\"PAY_PER_REQUEST\"", "\"ComparisonOperator\"", "\"AttributeValueList\"",
    ]

    func prepare(corpusEntry: [UInt8], fileName: String) -> [UInt8] {
        let operation = fileName.split(separator: "-").first.map(String.init) ?? "PutItem"
        return Array("\(operation)\n".utf8) + corpusEntry
    }

    /// The body's tree mutated (`TreeMutator`), so the input still parses and reaches the
    /// shapes' validation (byte mutations alone make most bodies fail to parse).
    func mutateStructurally(_ input: [UInt8], using mutator: inout Mutator) -> [UInt8]? {
        let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
        guard newline < input.endIndex, let tree = try? JSONValue(parsing: input[(newline + 1)...]) else { return nil }
        var writer = JSONWriter()
        writer.write(TreeMutator.mutate(tree, using: &mutator))
        return Array(input[...newline]) + writer.bytes
    }

    func run(_ input: [UInt8]) -> String {
        let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
        let name = String(decoding: input[..<newline], as: UTF8.self)
        var operation = DynamoOperation(rawValue: name) ?? .putItem
        // Any body as any operation's input, now and then.
        if input.count % 8 == 7 {
            let all = DynamoOperation.allCases
            operation = all[(input.count / 8) % all.count]
        }
        let body = newline < input.endIndex ? input[(newline + 1)...] : []
        let json: JSONValue
        do { json = try JSONValue(parsing: body) } catch { return "JSONParseError" }
        do {
            _ = try operation.inputType.decodeRequest(json)
            return "ok"
        } catch {
            return error.code.rawValue
        }
    }
}
