/// Where a value sits in its parent. DynamoDB's deserializer words a type mismatch differently
/// for a structure member and for a list element or map value.
enum ValuePosition: Sendable {
    case member
    case element
}

/// Anything a shape member can hold: strings, numbers, booleans, timestamps, enums, structures,
/// attribute values, and lists and maps of those.
///
/// The generated shapes decode, encode and print their members through this protocol; generic
/// code over it is specialized inside the module, so there is no dynamic dispatch on the hot path.
protocol ShapeValue: Sendable, Hashable {
    /// Decodes a non-null JSON value. When its JSON type does not fit, records DynamoDB's
    /// `SerializationException` in the decoder (the first one wins) and returns a placeholder:
    /// decoding never throws midway, which keeps the generated initializers small and fast.
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Self

    /// Writes the value's JSON.
    func encodeValue(to writer: inout JSONWriter)

    /// Appends the value as DynamoDB's Java service prints it in validation messages.
    func appendJava(to text: inout String)

    /// The Java type DynamoDB names in messages about maps of this type.
    static var javaTypeName: String { get }

    /// A stand-in for a missing required member (the violation is reported separately).
    static var placeholder: Self { get }

    /// The constraints of `rules` this value breaks (enumerations also check their value set).
    func violatedConstraints(_ rules: ValueRules) -> [String]

    /// Every constraint of `rules` for a value of this type, as DynamoDB lists them inside
    /// "Member must satisfy constraint: [...]".
    static func constraintTexts(_ rules: ValueRules) -> [String]

    /// For lists and maps: violations of the element (or map key and value) constraints, each
    /// reported once for the whole collection.
    func elementViolations(element: ValueRules?, key: ValueRules?) -> [String]

    /// Whether a value of this type has constraints even where the model gives no rules
    /// (enumerations: their value set). A static answer instead of a dynamic cast per field.
    static var alwaysChecksConstraints: Bool { get }
}

extension ShapeValue {
    static var alwaysChecksConstraints: Bool { false }
    func violatedConstraints(_ rules: ValueRules) -> [String] { [] }
    static func constraintTexts(_ rules: ValueRules) -> [String] { rules.texts }
    func elementViolations(element: ValueRules?, key: ValueRules?) -> [String] { [] }

    /// The value as Java's `toString` prints it.
    var javaDescription: String {
        var text = ""
        appendJava(to: &text)
        return text
    }
}

// MARK: - Scalars

extension String: ShapeValue {
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> String {
        guard case .string(let text) = json else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "String", className: "java.lang.String"))
        }
        return text
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(string: self) }
    func appendJava(to text: inout String) { text += self }
    static var javaTypeName: String { "java.lang.String" }
    static var placeholder: String { "" }
    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.stringViolations(self) }
}

extension Int: ShapeValue {
    /// Decodes a Java `Long` member.
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Int {
        guard case .number(let text) = json else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "Long", className: "java.lang.Long"))
        }
        guard let value = integer(text) else {
            return decoder.fail(SerializationMessages.outOfRange(text, javaType: "long"))
        }
        return value
    }

    /// Reads an integer as Jackson does: decimals are truncated toward zero; `nil` outside the
    /// range of a Java `long`.
    static func integer(_ text: String) -> Int? {
        if let value = Int(text) { return value }
        guard let value = Double(text), value.isFinite, value > -9.3e18, value < 9.3e18 else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(self) }
    func appendJava(to text: inout String) { text += String(self) }
    static var javaTypeName: String { "java.lang.Long" }
    static var placeholder: Int { 0 }
    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.numberViolations(self) }
}

/// A Java `Integer` member: an `Int` in the 32-bit range, named `Integer` in messages.
struct JavaInteger: ShapeValue {
    var value: Int

    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> JavaInteger {
        guard case .number(let text) = json else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "Integer", className: "java.lang.Integer"))
        }
        guard let value = Int.integer(text), value >= Int(Int32.min), value <= Int(Int32.max) else {
            return decoder.fail(SerializationMessages.outOfRange(text, javaType: "int"))
        }
        return JavaInteger(value: value)
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(value) }
    func appendJava(to text: inout String) { text += String(value) }
    static var javaTypeName: String { "java.lang.Integer" }
    static var placeholder: JavaInteger { JavaInteger(value: 0) }
    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.numberViolations(value) }
}

extension Bool: ShapeValue {
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Bool {
        guard case .bool(let flag) = json else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "Boolean", className: "java.lang.Boolean"))
        }
        return flag
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(self) }
    func appendJava(to text: inout String) { text += self ? "true" : "false" }
    static var javaTypeName: String { "java.lang.Boolean" }
    static var placeholder: Bool { false }
}

extension Double: ShapeValue {
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Double {
        guard case .number(let text) = json, let value = Double(text) else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "Double", className: "java.lang.Double"))
        }
        return value
    }

    /// Writes the value as DynamoDB's Java service prints a `Double`: with a fraction (`1.0`,
    /// `0.5`), as capacity units and size estimates appear in its answers.
    func encodeValue(to writer: inout JSONWriter) {
        if isFinite { writer.write(numberText: String(self)) } else { writer.write(self) }
    }
    func appendJava(to text: inout String) { text += JavaRendering.double(self) }
    static var javaTypeName: String { "java.lang.Double" }
    static var placeholder: Double { 0 }
}

extension Timestamp: ShapeValue {
    /// Decodes epoch seconds; a string holding a number is accepted as well.
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Timestamp {
        switch json {
        case .number(let text):
            if let seconds = Double(text) { return Timestamp(secondsSince1970: seconds) }
        case .string(let text):
            if let seconds = Double(text) { return Timestamp(secondsSince1970: seconds) }
        default:
            break
        }
        return decoder.fail(SerializationMessages.scalar(json, simpleName: "Date", className: "java.util.Date"))
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(secondsSince1970) }
    func appendJava(to text: inout String) { text += JavaRendering.date(secondsSince1970: secondsSince1970) }
    static var javaTypeName: String { "java.util.Date" }
    static var placeholder: Timestamp { Timestamp(secondsSince1970: 0) }
}

/// A binary member: base64 text on the wire, a Java `ByteBuffer` in DynamoDB.
struct Blob: ShapeValue {
    var bytes: [UInt8]

    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Blob {
        guard case .string(let text) = json else {
            return decoder.fail(SerializationMessages.scalar(json, simpleName: "ByteBuffer", className: "java.nio.ByteBuffer"))
        }
        switch Base64.decode(text) {
        case .success(let bytes): return Blob(bytes: bytes)
        case .failure(let problem):
            return decoder.fail(SerializationMessages.notConvertedBlob(text: text, problemMessage: problem.message))
        }
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(string: Base64.encode(bytes)) }
    func appendJava(to text: inout String) { text += JavaRendering.byteBuffer(count: bytes.count) }
    static var javaTypeName: String { "java.nio.ByteBuffer" }
    static var placeholder: Blob { Blob(bytes: []) }
    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.lengthViolations(bytes.count) }
}
