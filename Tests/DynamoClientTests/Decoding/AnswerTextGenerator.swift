import DynamoAPI

/// Seeded random JSON answers of DynamoDB item operations, written the many ways JSON allows:
/// whitespace between any tokens, members in any order, characters raw or escaped (`\uXXXX`,
/// surrogate pairs, `\/`), numbers in many forms. With `valid`, every answer is one the generic
/// path decodes without error (so the byte reader must read it too); otherwise an answer may
/// have one fault (an empty or repeated set, a bad number, bad base64, an unknown or escaped
/// type, a `null`, a second type member, a mistyped `Count`). One at most: with two, which one
/// the generic path reports depends on the order of its dictionaries, which varies from run to
/// run.
struct AnswerTextGenerator {
    var random: SplitMix64
    /// Whether every value is one the generic path accepts.
    var valid: Bool
    /// Faults the current answer may still get.
    private var faultsLeft = 0

    init(seed: UInt64, valid: Bool) {
        random = SplitMix64(seed: seed)
        self.valid = valid
    }

    // MARK: Answers

    /// A Query (or Scan) answer.
    mutating func queryAnswer() -> String {
        faultsLeft = 1
        var members: [String] = []
        let count = int(0...5)
        if chance(0.9) { members.append(member("Items", list((0..<count).map { _ in item() }))) }
        if chance(0.8) { members.append(member("Count", String(count))) }
        if chance(0.6) { members.append(member("ScannedCount", String(count + int(0...3)))) }
        if chance(0.3) { members.append(member("LastEvaluatedKey", item(maximumAttributes: 2))) }
        if chance(0.3) { members.append(member("ConsumedCapacity", consumedCapacity())) }
        if chance(0.1) { members.append(member("Unknown", #"{"a":[1,2.5e3,{"b":null}],"c":"\u00e9"}"#)) }
        if chance(0.05) { members.append(member("Items", "null")) }
        if fault(0.05) { members.append(member("Count", #""ten""#)) }
        return object(members.shuffled(using: &random))
    }

    /// A GetItem answer.
    mutating func getItemAnswer() -> String {
        faultsLeft = 1
        var members: [String] = []
        if chance(0.85) { members.append(member("Item", item())) }
        if chance(0.3) { members.append(member("ConsumedCapacity", consumedCapacity())) }
        return object(members.shuffled(using: &random))
    }

    /// A BatchGetItem answer.
    mutating func batchGetItemAnswer() -> String {
        faultsLeft = 1
        let tables = (0..<int(0...3)).map { index in
            member("table\(index)", list((0..<int(0...3)).map { _ in item(maximumAttributes: 3) }))
        }
        var members = [member("Responses", object(tables)), member("UnprocessedKeys", "{}")]
        if chance(0.3) { members.append(member("ConsumedCapacity", "[" + consumedCapacity() + "]")) }
        return object(members.shuffled(using: &random))
    }

    private mutating func consumedCapacity() -> String {
        object([member("TableName", string("bench")), member("CapacityUnits", chance(0.5) ? "0.5" : "1")])
    }

    // MARK: Items and values

    /// An item of up to `maximumAttributes` attributes of random types.
    mutating func item(maximumAttributes: Int = 6, depth: Int = 0) -> String {
        var names: Set<String> = []
        var members: [String] = []
        for _ in 0..<int(0...maximumAttributes) {
            let name = text(maximumLength: 6)
            // A repeated name (or a canonically equivalent one) is left to the generic path,
            // which keeps its last value: valid answers, which the reader must read itself,
            // repeat none.
            if valid, !names.insert(name).inserted { continue }
            members.append(rawMember(string(name), value(depth: depth)))
        }
        return object(members)
    }

    /// One attribute value, `{"<type>": <payload>}`.
    mutating func value(depth: Int = 0) -> String {
        let types = depth < 3 ? 10 : 8
        let payload: (String, String)
        switch int(0...(types - 1)) {
        case 0: payload = ("S", string(text(maximumLength: 12)))
        case 1: payload = ("N", string(number()))
        case 2: payload = ("B", string(binary()))
        case 3: payload = ("BOOL", chance(0.5) ? "true" : "false")
        // `{"NULL": false}` is no valid value (DynamoDB refuses it): only a faulty answer has one.
        case 4: payload = ("NULL", fault(0.1) ? "false" : "true")
        case 5: payload = ("SS", list(uniqueStrings().map { string($0) }))
        case 6: payload = ("NS", list(uniqueNumbers().map { string($0) }))
        case 7: payload = ("BS", list(uniqueBinaries().map { string($0) }))
        case 8: payload = ("M", item(maximumAttributes: 3, depth: depth + 1))
        default: payload = ("L", list((0..<int(0...3)).map { _ in value(depth: depth + 1) }))
        }
        var members = [rawMember(typeName(payload.0), payload.1)]
        if fault(0.03) { members.append(rawMember(string("N"), chance(0.5) ? "null" : string("1"))) }
        if fault(0.02) { return "null" }
        return object(members.shuffled(using: &random))
    }

    /// A type name as DynamoDB writes it: never escaped (an escaped one is left to the generic
    /// path), and, when not `valid`, sometimes one DynamoDB does not know or escaped after all.
    private mutating func typeName(_ name: String) -> String {
        guard fault(0.04) else { return "\"" + name + "\"" }
        return chance(0.5) ? string(name) : string(["X", "s", "SSS", "", "NUL"].randomElement(using: &random)!)
    }

    private mutating func uniqueStrings() -> [String] {
        if fault(0.1) { return chance(0.5) ? [] : ["a", "a"] }
        var seen: Set<String> = []
        return (0..<int(1...4)).map { _ in text(maximumLength: 5) }.filter { seen.insert($0).inserted }
    }

    private mutating func uniqueNumbers() -> [String] {
        if fault(0.1) { return chance(0.5) ? [] : ["1", "1.0"] }
        var seen: Set<DynamoNumber> = []
        return (0..<int(1...4)).map { _ in number() }.filter { text in
            (try? DynamoNumber(parsing: text)).map { seen.insert($0).inserted } ?? true
        }
    }

    private mutating func uniqueBinaries() -> [String] {
        if fault(0.1) { return chance(0.5) ? [] : ["AA==", "AA=="] }
        var seen: Set<String> = []
        return (0..<int(1...3)).map { _ in binary() }.filter { seen.insert($0).inserted }
    }

    /// A number in one of the forms DynamoDB accepts (or, when not `valid`, sometimes refuses).
    mutating func number() -> String {
        let accepted = [
            "0", "-0", "7", "-12", "12.5", "-0.50", "1e5", "1E+3", "2.5e-10", "0001.20", ".5", "5.", "+7",
            "12345678901234567890123456789012345678", "9.9999999999999999999999999999999999999E+125",
            "1e-130", "0e125", String(int(0...1_000_000)), "-\(int(0...99)).\(int(0...99))",
        ]
        let refused = ["abc", "", "1e126", "--1", "1234567890123456789012345678901234567890", "NaN", " 1", "1e"]
        if fault(0.1) { return refused.randomElement(using: &random)! }
        return accepted.randomElement(using: &random)!
    }

    private mutating func binary() -> String {
        if fault(0.05) { return "not base64!" }
        return Base64.encode((0..<int(0...9)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// Text of up to `maximumLength` characters, from a pool with quotes, backslashes, control
    /// characters, accents (precomposed and combining), CJK, emoji and separators.
    mutating func text(maximumLength: Int) -> String {
        let pool: [String] = [
            "a", "b", "Z", "0", "9", " ", "_", "-", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}",
            "é", "e\u{301}", "ß", "日", "本", "😀", "👍🏽", "\u{2028}", "\u{FEFF}", "K", "\u{212A}",
        ]
        return (0..<int(0...maximumLength)).map { _ in pool.randomElement(using: &random)! }.joined()
    }

    // MARK: JSON text

    /// A JSON string of `text`, each character written raw or escaped at random.
    mutating func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += chance(0.5) ? "\\n" : "\\u000a"
            case "\t": out += chance(0.5) ? "\\t" : "\\u0009"
            case "/": out += chance(0.5) ? "\\/" : "/"
            default:
                if scalar.value < 0x20 || chance(0.08) {
                    out += escaped(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private mutating func escaped(_ scalar: Unicode.Scalar) -> String {
        let units = Array(String(scalar).utf16)
        let upper = chance(0.5)
        return units.map { unit in
            let hex = String(unit, radix: 16, uppercase: upper)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }

    private mutating func member(_ name: String, _ value: String) -> String { rawMember(string(name), value) }

    private mutating func rawMember(_ name: String, _ value: String) -> String {
        name + space() + ":" + space() + value
    }

    private mutating func object(_ members: [String]) -> String {
        "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
    }

    private mutating func list(_ elements: [String]) -> String {
        "[" + space() + elements.joined(separator: space() + "," + space()) + space() + "]"
    }

    /// Usually nothing, sometimes JSON whitespace.
    private mutating func space() -> String {
        guard chance(0.15) else { return "" }
        return [" ", "\n", "\t", "\r\n", "  "].randomElement(using: &random)!
    }

    // MARK: Randomness

    /// Whether to put a fault here (never in `valid` answers, at most one per answer).
    private mutating func fault(_ probability: Double) -> Bool {
        guard !valid, faultsLeft > 0, chance(probability) else { return false }
        faultsLeft -= 1
        return true
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
}
