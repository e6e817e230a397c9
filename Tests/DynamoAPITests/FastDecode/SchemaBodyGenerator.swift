import DynamoAPI

/// Writes random request bodies of any operation from its input's schema (``InputSchemas``):
/// valid ones (every required member, some optional ones, lengths and values within the rules)
/// and, with faults, ones that break a rule: a missing required member, a wrong JSON type, an
/// unknown or repeated member, a length out of range, an unknown enum value, a `null`.
struct SchemaBodyGenerator {
    var base: RequestBodyGenerator
    let shapes: [String: JSONValue]

    init(seed: UInt64, faultRate: Double, shapes: [String: JSONValue]) {
        base = RequestBodyGenerator(random: SplitMix64(seed: seed), faultRate: faultRate)
        self.shapes = shapes
    }

    /// The schemas of ``InputSchemas``: the input shape of each operation, and the shapes.
    static let schemas: (operations: [String: String], shapes: [String: JSONValue]) = {
        guard case .object(let root) = try! JSONValue(parsing: Array(InputSchemas.json.utf8)),
            case .object(let operations)? = root["operations"], case .object(let shapes)? = root["shapes"]
        else { fatalError("InputSchemas.json is not an object of operations and shapes") }
        return (operations.compactMapValues { if case .string(let name) = $0 { name } else { nil } }, shapes)
    }()

    mutating func fault() -> Bool { base.fault() }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &base.random) }

    /// A body of the structure `shape`.
    mutating func body(_ shape: String) -> String { value(shape, rules: [:], depth: 0) }

    /// A JSON value of `shape` under the member's `rules` (`minLength`, `maxLength`, `pattern`,
    /// `minValue`, `maxValue`, or `tableNameOrARN`).
    mutating func value(_ shape: String, rules: [String: JSONValue], depth: Int) -> String {
        if fault() {
            switch int(0...5) {
            case 0: return "null"
            case 1: return "12"
            case 2: return "\"x\""
            case 3: return "[]"
            case 4: return "{}"
            default: return "true"
            }
        }
        guard case .object(let schema)? = shapes[shape], case .string(let kind)? = schema["kind"] else {
            fatalError("no schema for \(shape)")
        }
        switch kind {
        case "structure": return structure(schema, depth: depth)
        case "attributeValue": return base.attributeValue()
        case "string":
            if case .array(let values)? = schema["enum"] {
                let known = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
                return fault() ? "\"NOT_A_VALUE\"" : "\"" + base.pick(known) + "\""
            }
            return string(rules)
        case "boolean": return base.pick(["true", "false"])
        case "integer", "long":
            let low = Self.bound(rules["minValue"]) ?? 0
            let high = min(Self.bound(rules["maxValue"]) ?? low + 50, low + 50)
            return String(fault() ? high + 1 : int(low...max(low, high)))
        case "double": return base.pick(["1.5", "0", "10"])
        case "timestamp": return base.pick(["1700000000", "1.7e9"])
        case "blob": return base.base64Literal()
        case "list":
            let element = Self.text(schema["element"]) ?? ""
            let elementRules = Self.rules(schema["elementRules"])
            let count = counts(rules)
            let elements = (0..<count).map { _ in value(element, rules: elementRules, depth: depth + 1) }
            return "[" + elements.joined(separator: base.space() + ",") + "]"
        case "map":
            let keyRules = Self.rules(schema["keyRules"])
            let valueShape = Self.text(schema["value"]) ?? ""
            let valueRules = Self.rules(schema["valueRules"])
            var entries: [String] = []
            var keys: Set<String> = []
            for _ in 0..<counts(rules) {
                let key = string(keyRules)
                if keys.insert(key).inserted || fault() {
                    entries.append(key + ":" + base.space() + value(valueShape, rules: valueRules, depth: depth + 1))
                }
            }
            return "{" + entries.joined(separator: ",") + "}"
        default: fatalError("unknown kind \(kind)")
        }
    }

    mutating func structure(_ schema: [String: JSONValue], depth: Int) -> String {
        guard case .array(let members)? = schema["members"] else { return "{}" }
        var parts: [String] = []
        for case .object(let member) in members {
            guard let name = Self.text(member["name"]), let shape = Self.text(member["shape"]) else { continue }
            let required = member["required"] == .bool(true)
            // Required members are there but for a fault; optional ones at times (less deep down).
            guard required ? !fault() : base.chance(depth == 0 ? 0.5 : 0.3) else { continue }
            let text = "\"" + name + "\":" + base.space() + value(shape, rules: Self.rules(member["rules"]), depth: depth + 1)
            parts.append(text)
            if fault() { parts.append(text) }
        }
        if fault() { parts.append(#""UnknownMember":"x""#) }
        for index in parts.indices.reversed() where index > 0 {
            parts.swapAt(index, int(0...index))
        }
        return "{" + base.space() + parts.joined(separator: "," + base.space()) + "}"
    }

    /// A collection's element count: within its rules (at most 3 over the minimum), or just out.
    mutating func counts(_ rules: [String: JSONValue]) -> Int {
        let low = Self.bound(rules["minLength"]) ?? 0
        let high = min(Self.bound(rules["maxLength"]) ?? low + 3, low + 3)
        if fault() { return base.pick([max(0, low - 1), (Self.bound(rules["maxLength"]) ?? 3) + 1]) }
        return int(low...max(low, high))
    }

    /// A string literal within `rules`: its pattern's characters, a length in range.
    mutating func string(_ rules: [String: JSONValue]) -> String {
        if rules["tableNameOrARN"] != nil {
            return fault() ? base.pick(["\"\"", "\"b c\"", "\"arn:aws:dynamodb:us-east-1:1:table/t\""]) : base.tableName()
        }
        var low = Self.bound(rules["minLength"]) ?? 0
        var high = min(Self.bound(rules["maxLength"]) ?? low + 8, low + 8)
        if fault() {
            low = (Self.bound(rules["maxLength"]) ?? 8) + 1
            high = low
        }
        let count = int(low...max(low, high))
        switch Self.text(rules["pattern"]) {
        case "accountID": return "\"" + String(repeating: "1", count: 12) + "\""
        case "uuid": return "\"12345678-1234-1234-1234-123456789abc\""
        case "csvDelimiter": return "\",\""
        case "importNextToken": return "\"" + String(repeating: "0123456789abcdef", count: max(1, count / 16)) + "\""
        case "s3Bucket": return "\"bucket-" + String(repeating: "a", count: max(1, count - 7)) + "\""
        case "contributorInsightsRule": return "\"R" + String(repeating: "u", count: max(1, count - 2)) + "e\""
        case "tableName":
            return "\"" + String((0..<max(count, 1)).map { _ in base.pick(Array("abcXYZ019_.-")) }) + "\""
        case nil where count <= 8 && low == 0:
            return base.stringLiteral(maxLength: count)
        default:
            return "\"" + String((0..<count).map { _ in base.pick(Array("abcdefXYZ019 ")) }) + "\""
        }
    }

    static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    static func bound(_ value: JSONValue?) -> Int? {
        if case .number(let text)? = value { Int(text) } else { nil }
    }

    static func rules(_ value: JSONValue?) -> [String: JSONValue] {
        switch value {
        case .object(let rules)?: rules
        case .string?: ["tableNameOrARN": .bool(true)]
        default: [:]
        }
    }
}
