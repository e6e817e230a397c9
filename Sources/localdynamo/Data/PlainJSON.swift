import DynamoAPI

/// Items as plain JSON (`{"pk": "a", "n": 1}`) rather than DynamoDB JSON (`{"pk": {"S": "a"}}`).
///
/// Strings, numbers, booleans, null, arrays and objects map to S, N, BOOL, NULL, L and M. On
/// the way out, binary values become base64 strings and sets become arrays, so exporting to
/// plain JSON and importing back keeps every value except those two types exact (numbers keep
/// their digits: a JSON number's text is read and written as DynamoDB's decimal).
enum PlainJSON {
    /// A problem with one value, phrased for a person.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The item a plain JSON object stands for.
    static func item(_ json: JSONValue) throws -> [String: AttributeValue] {
        guard case .object(let members) = json else {
            throw Failure(description: "an item must be a JSON object, not \(json.typeName)")
        }
        return try members.mapValues(value)
    }

    /// One attribute value from plain JSON.
    static func value(_ json: JSONValue) throws -> AttributeValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .s(text)
        case .number(let text):
            do { return .n(try DynamoNumber(parsing: text)) } catch {
                throw Failure(description: "the number \(text) is outside DynamoDB's range (38 digits, exponent -130...125)")
            }
        case .array(let elements): return .l(try elements.map(value))
        case .object(let members): return .m(try members.mapValues(value))
        }
    }

    /// The plain JSON form of an item.
    static func json(_ item: [String: AttributeValue]) -> JSONValue {
        .object(item.mapValues(json))
    }

    /// The plain JSON form of one value.
    static func json(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .s(let text): .string(text)
        case .n(let number): .number(number.description)
        case .b(let bytes): .string(Base64.encode(bytes))
        case .ss(let texts): .array(texts.map(JSONValue.string))
        case .ns(let numbers): .array(numbers.map { .number($0.description) })
        case .bs(let blobs): .array(blobs.map { .string(Base64.encode($0)) })
        case .m(let members): .object(members.mapValues(json))
        case .l(let elements): .array(elements.map(json))
        case .null: .null
        case .bool(let flag): .bool(flag)
        }
    }
}
