// The model's `AttributeValue` structure is the hand-written `AttributeValue` enum; this makes it
// a member type of the generated shapes.

extension AttributeValue: ShapeValue {
    /// Decodes with `AttributeValue(json:)`. Its `SerializationException`s count as type
    /// errors; its `ValidationException`s (an empty value, a duplicate set member, a bad number)
    /// are reported after the constraint violations, as DynamoDB checks values after its
    /// request validator.
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> AttributeValue {
        guard case .object = json else {
            return decoder.fail(SerializationMessages.structure(json, className: javaTypeName, position: position))
        }
        do {
            return try AttributeValue(json: json)
        } catch {
            if error.code == .serialization { return decoder.fail(error) }
            if decoder.valueError == nil { decoder.valueError = error }
            return .null
        }
    }

    func encodeValue(to writer: inout JSONWriter) { encode(to: &writer) }

    static var javaTypeName: String { "\(SerializationMessages.modelPackage).AttributeValue" }
    static var placeholder: AttributeValue { .null }

    /// Java's `toString` of DynamoDB's attribute value class: every field, `null` when unset,
    /// e.g. `AttributeValue(s=abc, n=null, b=null, sS=null, nS=null, bS=null, m=null, l=null,
    /// nULL=null, bOOL=null)`.
    func appendJava(to text: inout String) {
        var fields = [String](repeating: "null", count: 10)
        switch self {
        case .s(let value): fields[0] = value
        case .n(let value): fields[1] = value.description
        case .b(let value): fields[2] = JavaRendering.byteBuffer(count: value.count)
        case .ss(let values): fields[3] = "[" + values.joined(separator: ", ") + "]"
        case .ns(let values): fields[4] = "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .bs(let values):
            fields[5] = "[" + values.map { JavaRendering.byteBuffer(count: $0.count) }.joined(separator: ", ") + "]"
        case .m(let map): fields[6] = map.javaDescription
        case .l(let values): fields[7] = values.javaDescription
        case .null: fields[8] = "true"
        case .bool(let flag): fields[9] = flag ? "true" : "false"
        }
        let names = ["s", "n", "b", "sS", "nS", "bS", "m", "l", "nULL", "bOOL"]
        text += "AttributeValue("
        for index in names.indices {
            if index > 0 { text += ", " }
            text += names[index]
            text += "="
            text += fields[index]
        }
        text += ")"
    }
}
