import DynamoAPI
import DynamoExpressions

/// The expression parsers and compiler (condition, update, projection, filter, key condition),
/// then the compiled result run against a sample item. Inputs are `<kind>\n<expression>`; every
/// `#name` and `:value` placeholder in the text is defined, so inputs get past the placeholder
/// checks into parsing, type checks and evaluation.
struct ExpressionTarget: FuzzTarget {
    let name = "expressions"
    let maximumInputSize = 6_000
    let dictionary = [
        " AND ", " OR ", "NOT ", " BETWEEN ", " IN ", "(", ")", "[", "]", ".", ",", "=", "<>", "<", "<=", ">", ">=",
        "+", "-", "SET ", "REMOVE ", "ADD ", "DELETE ", "#n", "#m", ":v", ":s", ":l", ":m", "attribute_exists(",
        "attribute_not_exists(", "attribute_type(", "begins_with(", "contains(", "size(", "if_not_exists(",
        "list_append(", "[0]", "[99999999999]", "[-1]", "a.b.c", "\"", "`", "pk", "sk", "n", "l", "m", "\u{00E9}",
    ]

    /// Values the placeholders get, chosen by the placeholder's name.
    private static let values: [AttributeValue] = [
        .s("a"), .n(DynamoNumber(1)), .n(DynamoNumber(0)), .b([1, 2]), .ss(["a", "b"]), .ns([DynamoNumber(1)]),
        .bs([[0]]), .l([.s("x"), .n(DynamoNumber(2))]), .m(["k": .bool(true)]), .null, .bool(false), .s(""),
    ]

    private static let item: Item = [
        "pk": .s("a"), "sk": .n(DynamoNumber(1)), "n": .n(DynamoNumber(3)), "s": .s("x"), "ss": .ss(["a", "b"]),
        "ns": .ns([DynamoNumber(1), DynamoNumber(2)]), "l": .l([.n(DynamoNumber(1)), .s("y"), .null]),
        "m": .m(["k": .bool(false), "d": .m(["e": .l([])])]), "b": .b([0, 1]),
    ]

    func prepare(corpusEntry: [UInt8], fileName: String) -> [UInt8] {
        let kind = fileName.split(separator: "-").first.map(String.init) ?? "condition"
        return Array("\(kind)\n".utf8) + corpusEntry
    }

    func run(_ input: [UInt8]) -> String {
        let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
        let kind = String(decoding: input[..<newline], as: UTF8.self)
        let text = newline < input.endIndex ? String(decoding: input[(newline + 1)...], as: UTF8.self) : ""
        var expressions: ExpressionInput
        switch kind {
        case "update": expressions = ExpressionInput(.updateItem); expressions.updateExpression = text
        case "projection": expressions = ExpressionInput(.getItem); expressions.projectionExpression = text
        case "filter": expressions = ExpressionInput(.scan); expressions.filterExpression = text
        case "keyCondition": expressions = ExpressionInput(.query); expressions.keyConditionExpression = text
        default: expressions = ExpressionInput(.putItem); expressions.conditionExpression = text
        }
        let (names, values) = Self.placeholders(in: text)
        if !names.isEmpty { expressions.names = names }
        if !values.isEmpty { expressions.values = values }
        let compiled: CompiledExpressions
        do { compiled = try ExpressionCompiler.compile(expressions) } catch { return error.code.rawValue }
        _ = compiled.condition?.evaluate(Self.item)
        _ = compiled.filter?.evaluate(Self.item)
        _ = compiled.projection?.apply(to: Self.item)
        if let update = compiled.update {
            do { _ = try update.apply(to: Self.item) } catch { return "apply: \(error.code.rawValue)" }
        }
        return "ok"
    }

    /// A name for every `#x` and a value for every `:x` in `text`.
    static func placeholders(in text: String) -> (names: [String: String], values: [String: AttributeValue]) {
        var names: [String: String] = [:]
        var values: [String: AttributeValue] = [:]
        var current: [Character] = []
        func flush() {
            guard current.count > 1 else { current = []; return }
            let token = String(current)
            if current[0] == "#" {
                names[token] = String(current.dropFirst())
            } else {
                values[token] = Self.values[token.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % Self.values.count]
            }
            current = []
        }
        for character in text {
            if character == "#" || character == ":" {
                flush()
                current = [character]
            } else if !current.isEmpty, character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return (names, values)
    }
}
