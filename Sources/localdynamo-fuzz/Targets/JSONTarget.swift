import DynamoAPI

/// The JSON reader: any bytes parse or fail with a `JSONParseError`, and a parsed document
/// written back out parses to the same value.
struct JSONTarget: FuzzTarget {
    let name = "json"
    /// Its own odd documents and every request body of the shapes corpus.
    let corpusFolders = ["json", "shapes"]
    let dictionary = [
        "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\ud83d", "\\ude00", "\\u0000", "true", "false", "null",
        "-", "e", "E+", ".", "0", "\"S\"", "\"N\"", "\"M\"", "\"L\"", " ", "\t", "\u{FEFF}", "\u{00E9}",
    ]

    func run(_ input: [UInt8]) -> String {
        let value: JSONValue
        do { value = try JSONValue(parsing: input) } catch { return "JSONParseError" }
        let written = value.serialized
        guard let again = try? JSONValue(parsing: written) else { return "BUG: the writer's output does not parse: \(written.prefix(200))" }
        guard again == value else { return "BUG: the document changed when written and read back: \(written.prefix(200))" }
        return "ok"
    }
}
