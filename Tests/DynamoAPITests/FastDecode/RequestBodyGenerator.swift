import DynamoAPI

/// Writes random request bodies for the fast decoder's property test: valid ones of many shapes
/// and spellings (all ten attribute types, nesting, escapes and raw unicode, numbers in many
/// spellings, shuffled members, random whitespace) and, with `mutate`, ones with a fault that the
/// generic decoder reports (or, at times, tolerates).
struct RequestBodyGenerator {
    var random: SplitMix64
    /// The chance (0...1) that any one part of a body is written wrong.
    var faultRate: Double

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &random)] }
    mutating func fault() -> Bool { chance(faultRate) }

    mutating func space() -> String {
        chance(0.8) ? "" : pick([" ", "\n", "\t ", "\r\n  "])
    }

    /// A JSON string literal of random text: plain, escaped, raw or escaped unicode.
    mutating func stringLiteral(maxLength: Int = 8) -> String {
        var text = "\""
        for _ in 0..<Int.random(in: 0...maxLength, using: &random) {
            text += pick([
                "a", "b", "Z", "0", "_", " ", "-", "é", "😀", "日", "e\u{301}", "\\\"", "\\\\", "\\/", "\\n", "\\t",
                "\\u00e9", "\\u0041", "\\ud83d\\ude00", "\\u65e5", "\\u0001", "\\b", "\\f", "\\r",
            ])
        }
        if fault() { text += pick(["\\x", "\\ud800", "\u{01}", "\\u12"]) }
        return text + "\""
    }

    mutating func numberLiteral() -> String {
        var options = [
            "1", "0", "-0", "+12.50", "0001.20", ".5", "5.", "1e3", "1E+3", "-1.5e-3", "42", "-7", "3.14159",
            "1.e5", "99999999999999999999999999999999999999", "1E125", "1E-130", "0e125",
        ]
        if fault() {
            options += ["", "abc", " 1", "1e126", "1e-131", "123456789012345678901234567890123456789", "NaN", "."]
        }
        return "\"" + pick(options) + "\""
    }

    mutating func base64Literal() -> String {
        var options = ["", "AA==", "AQID", "aGVsbG8=", "/w==", "+/8=", "AAECAwQFBgcICQ=="]
        if fault() { options += ["!!", "A", "AA=", "AAA=x"] }
        return "\"" + pick(options) + "\""
    }

    mutating func list(_ element: (inout RequestBodyGenerator) -> String, count: ClosedRange<Int>) -> String {
        let elements = (0..<Int.random(in: count, using: &random)).map { _ in element(&self) }
        return "[" + space() + elements.joined(separator: space() + "," + space()) + space() + "]"
    }

    /// A set: usually distinct elements; with a fault, empty or with a duplicate.
    mutating func set(_ element: (inout RequestBodyGenerator) -> String) -> String {
        var elements: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let next = element(&self)
            if !elements.contains(next) { elements.append(next) }
        }
        if fault() { elements = chance(0.5) ? [] : elements + [elements[0]] }
        return "[" + elements.joined(separator: "," + space()) + "]"
    }

    mutating func attributeValue(depth: Int = 0) -> String {
        let types =
            depth < 3
            ? ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "M", "L"]
            : ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS"]
        var type = pick(types)
        let payload: String
        switch type {
        case "S": payload = stringLiteral()
        case "N": payload = numberLiteral()
        case "B": payload = base64Literal()
        case "BOOL": payload = pick(["true", "false"])
        // `{"NULL": false}` is refused (every region, 2026-10-07): only a faulty body has one.
        case "NULL": payload = fault() ? "false" : "true"
        case "SS": payload = set { $0.stringLiteral(maxLength: 3) }
        case "NS": payload = set { $0.numberLiteral() }
        case "BS": payload = set { $0.base64Literal() }
        case "M": payload = attributeMap(depth: depth + 1)
        default: payload = list({ $0.attributeValue(depth: depth + 1) }, count: 0...3)
        }
        var members = ["\"\(type)\"" + space() + ":" + space() + payload]
        if fault() {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: type = pick(["X", "s", "SSS", "Null"]); members = ["\"\(type)\":" + payload]
            case 1: members.append("\"S\":\"extra\"")
            case 2: members.append("\"N\":null")
            case 3: members = []
            case 4: members = ["\"\(type)\":null"]
            default: members = ["\"\(type)\":" + pick(["1", "{}", "[]", "\"x\"", "true"])]
            }
        }
        return "{" + space() + members.joined(separator: ",") + space() + "}"
    }

    /// A name ending in `index`, so that no two names of one map are equal (DynamoDB keeps the
    /// last of two equal names; the fast decoder leaves that to the generic path).
    mutating func attributeName(_ index: Int) -> String {
        fault() && chance(0.3) ? "\"\"" : stringLiteral(maxLength: 4).dropLast() + "\(index)\""
    }

    mutating func attributeMap(depth: Int = 0) -> String {
        var members: [String] = []
        for index in 0..<Int.random(in: 0...4, using: &random) {
            members.append(attributeName(index) + space() + ":" + space() + attributeValue(depth: depth))
        }
        if fault(), let first = members.first { members.append(first) }
        if fault() { members.append("\"n\":null") }
        return "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
    }

    mutating func tableName() -> String {
        var names = ["bench", "Orders", "t-1", "a.b_c", "abc"]
        if fault() { names += ["", "a b", String(repeating: "x", count: 256), "arn:aws:dynamodb:us-east-1:1:table/t", "é"] }
        return "\"" + pick(names) + "\""
    }

    mutating func enumLiteral(_ known: [String]) -> String {
        "\"" + (fault() ? pick(["BOGUS", "", "total"]) : pick(known)) + "\""
    }

    /// Joins members in random order, with random faults at the top level.
    mutating func object(_ required: [String], _ optional: [String]) -> String {
        var members = required.filter { _ in !fault() } + optional.filter { _ in chance(0.4) }
        if fault() { members.append(pick(["\"Unknown\":1", "\"Expected\":{}", "\"ConditionalOperator\":\"AND\""])) }
        if fault(), let first = members.first { members.append(first) }
        if fault(), !members.isEmpty {
            let index = Int.random(in: 0..<members.count, using: &random)
            let name = members[index].prefix { $0 != ":" }
            members[index] = name + ":" + pick(["null", "1", "true", "[]", "{}", "\"s\""])
        }
        members.shuffle(using: &random)
        return space() + "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}" + space()
    }

    mutating func putItem() -> String {
        object(["\"TableName\":" + tableName(), "\"Item\":" + attributeMap()], conditionalWriteOptions())
    }

    /// The optional members PutItem and UpdateItem share: the condition, the placeholder maps and
    /// the return options.
    mutating func conditionalWriteOptions() -> [String] {
        [
            "\"ConditionExpression\":" + stringLiteral(),
            "\"ExpressionAttributeNames\":{\"#a\":\"a\",\"#b\":" + stringLiteral() + "}",
            "\"ExpressionAttributeValues\":{\":v\":" + attributeValue() + "}",
            "\"ReturnValues\":" + enumLiteral(["NONE", "ALL_OLD", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"]),
            "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
            "\"ReturnItemCollectionMetrics\":" + enumLiteral(["SIZE", "NONE"]),
            "\"ReturnValuesOnConditionCheckFailure\":" + enumLiteral(["ALL_OLD", "NONE"]),
        ]
    }

    mutating func writeRequest() -> String {
        let request =
            chance(0.7)
            ? "{\"PutRequest\":{\"Item\":" + attributeMap() + "}}"
            : "{\"DeleteRequest\":{" + space() + "\"Key\":" + attributeMap() + "}}"
        guard fault() else { return request }
        return pick(["{}", "{\"PutRequest\":{}}", "{\"PutRequest\":{\"Item\":{}},\"DeleteRequest\":{\"Key\":{}}}", "null"])
    }

    mutating func batchWriteItem() -> String {
        var tables: [String] = []
        var names: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let name = tableName()
            if names.contains(name), !fault() { continue }
            names.append(name)
            let upper = fault() ? 27 : 5
            tables.append(name + ":" + list({ $0.writeRequest() }, count: (fault() ? 0 : 1)...upper))
        }
        return object(
            ["\"RequestItems\":{" + tables.joined(separator: ",") + "}"],
            [
                "\"ReturnConsumedCapacity\":" + enumLiteral(["TOTAL", "INDEXES", "NONE"]),
                "\"ReturnItemCollectionMetrics\":" + enumLiteral(["SIZE", "NONE"]),
            ])
    }

    /// Breaks a body's bytes: cut short, one byte changed, or something appended.
    mutating func damage(_ body: [UInt8]) -> [UInt8] {
        guard !body.isEmpty else { return body }
        var bytes = body
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
        case 1: bytes[Int.random(in: 0..<bytes.count, using: &random)] = pick(Array("{}[]\":,\\ 0an\u{7F}".utf8) + [0xFF, 0x01])
        default: bytes += Array(pick(["}", " x", ",", "{}"]).utf8)
        }
        return bytes
    }
}
