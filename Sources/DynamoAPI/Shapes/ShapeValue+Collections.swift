// Lists and maps of shape values. Violations inside an element are prefixed with the element's
// path: `1.member` for the first list element (DynamoDB counts from 1), `<key>.member` for a
// map value; the decoder later prefixes the member name.

extension Array: ShapeValue where Element: ShapeValue {
    @inline(never)
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> [Element] {
        guard case .array(let items) = json else { return decoder.fail(SerializationMessages.list(json, position: position)) }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for index in items.indices {
            let item = items[index]
            if case .null = item { continue }
            let mark = decoder.violations.count
            elements.append(Element.decodeValue(item, position: .element, decoder: &decoder))
            if decoder.violations.count != mark {
                decoder.prefixViolations(from: mark, with: "\(index + 1).member")
            }
        }
        return elements
    }

    @inline(never)
    func encodeValue(to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "["))
        var first = true
        for element in self {
            if !first { writer.writeRaw(UInt8(ascii: ",")) }
            first = false
            element.encodeValue(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }

    func appendJava(to text: inout String) {
        text += "["
        var first = true
        for element in self {
            if !first { text += ", " }
            first = false
            element.appendJava(to: &text)
        }
        text += "]"
    }

    static var javaTypeName: String { "java.util.List<\(Element.javaTypeName)>" }
    static var placeholder: [Element] { [] }

    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.lengthViolations(count) }

    func elementViolations(element: ValueRules?, key: ValueRules?) -> [String] {
        guard let element else { return [] }
        for value in self where !value.violatedConstraints(element).isEmpty {
            return ["Member must satisfy constraint: [\(Element.constraintTexts(element).joined(separator: ", "))]"]
        }
        return []
    }
}

extension Dictionary: ShapeValue where Key == String, Value: ShapeValue {
    @inline(never)
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> [String: Value] {
        guard case .object(let members) = json else {
            return decoder.fail(SerializationMessages.map(json, valueType: Value.javaTypeName, position: position))
        }
        // Attribute values never hold constraint violations, so the common maps (items, keys,
        // expression values) keep the JSON object's hash table instead of rebuilding one.
        if Value.self == AttributeValue.self, !members.values.contains(where: { if case .null = $0 { true } else { false } }) {
            return members.mapValues { json in
                let clean = decoder.valueError == nil
                let value = Value.decodeValue(json, position: .element, decoder: &decoder)
                if clean, decoder.valueError != nil {
                    decoder.valueErrorKey = members.first { $0.value == json }?.key
                }
                return value
            }
        }
        var map = [String: Value](minimumCapacity: members.count)
        var groups: [(key: String, range: Range<Int>)] = []
        for (key, item) in members {
            if case .null = item { continue }
            let mark = decoder.violations.count
            map[key] = Value.decodeValue(item, position: .element, decoder: &decoder)
            if decoder.violations.count != mark {
                decoder.prefixViolations(from: mark, with: key + ".member")
                groups.append((key, mark..<decoder.violations.count))
            }
        }
        if groups.count > 1 { decoder.reorderViolations(groups, keys: members.keys) }
        return map
    }

    @inline(never)
    func encodeValue(to writer: inout JSONWriter) {
        if let item = self as? [String: AttributeValue] {
            AttributeValue.encode(item: item, to: &writer)
            return
        }
        // In key order, so an answer's bytes do not depend on hashing.
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        for key in keys.sorted() {
            writer.writeKey(key, first: first)
            first = false
            self[key]!.encodeValue(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    func appendJava(to text: inout String) {
        text += "{"
        var first = true
        for key in JavaRendering.hashOrder(keys) {
            if !first { text += ", " }
            first = false
            text += key
            text += "="
            self[key]!.appendJava(to: &text)
        }
        text += "}"
    }

    static var javaTypeName: String { "java.util.Map<java.lang.String, \(Value.javaTypeName)>" }
    static var placeholder: [String: Value] { [:] }

    func violatedConstraints(_ rules: ValueRules) -> [String] { rules.lengthViolations(count) }

    func elementViolations(element: ValueRules?, key: ValueRules?) -> [String] {
        var found: [String] = []
        if let key, keys.contains(where: { !$0.violatedConstraints(key).isEmpty }) {
            found.append("Map keys must satisfy constraint: [\(String.constraintTexts(key).joined(separator: ", "))]")
        }
        if let element, values.contains(where: { !$0.violatedConstraints(element).isEmpty }) {
            found.append("Map value must satisfy constraint: [\(Value.constraintTexts(element).joined(separator: ", "))]")
        }
        return found
    }
}
