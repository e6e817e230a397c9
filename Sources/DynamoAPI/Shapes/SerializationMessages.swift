/// DynamoDB's `SerializationException` messages for a JSON value of the wrong type.
///
/// These are the messages of DynamoDB's current deserializer (Jackson-based), as captured
/// against real DynamoDB by the dynoxide project's conformance work (2025–2026). Older services
/// (and the 2013-era tests of dynalite) used different wording, e.g. `class java.lang.Short can
/// not be converted to an String`; DynamoDB no longer does.
enum SerializationMessages {
    /// The package of DynamoDB's model classes, named in some messages.
    static let modelPackage = "com.amazonaws.dynamodb.v20120810"

    /// A JSON null, or a JSON value of the wrong kind for a structure member, list or map.
    static let unexpectedFieldType = DynamoError.serialization("Unexpected field type")
    /// A JSON object where a scalar or a list was expected.
    static let unexpectedStructure = DynamoError.serialization("Start of structure or map found where not expected")

    /// A JSON array where a scalar or structure (Java class `className`) was expected.
    static func unrecognizedCollection(_ className: String) -> DynamoError {
        .serialization("Unrecognized collection type class \(className)")
    }

    /// A JSON boolean or number (Jackson's token name) where a `simpleName` scalar was expected.
    static func cannotConvert(_ token: String, to simpleName: String) -> DynamoError {
        .serialization("\(token) cannot be converted to \(simpleName)")
    }

    /// A scalar was expected: `simpleName` is the Java class (`String`, `Integer`, `Long`,
    /// `Double`, `Boolean`, `Date`, `ByteBuffer`) and `className` its full name.
    static func scalar(_ json: JSONValue, simpleName: String, className: String) -> DynamoError {
        switch json {
        case .array:
            return unrecognizedCollection(className)
        case .object:
            return unexpectedStructure
        case .bool(let flag):
            return cannotConvert(flag ? "TRUE_VALUE" : "FALSE_VALUE", to: simpleName)
        case .number(let text):
            let token = isDecimal(text) ? "DECIMAL_VALUE" : "NUMBER_VALUE"
            return cannotConvert(token, to: simpleName)
        case .string:
            if simpleName == "Boolean" { return .serialization("Unexpected token received from parser") }
            return cannotConvert("STRING_VALUE", to: simpleName)
        case .null:
            return unexpectedFieldType
        }
    }

    /// A structure was expected (`className` is its full Java class name).
    static func structure(_ json: JSONValue, className: String, position: ValuePosition) -> DynamoError {
        if case .array = json { return unrecognizedCollection(className) }
        return position == .member ? unexpectedFieldType : .serialization("Unexpected value type in payload")
    }

    /// A list was expected.
    static func list(_ json: JSONValue, position: ValuePosition) -> DynamoError {
        if position == .element { return .serialization(parameterizedTypeCast) }
        if case .object = json { return unexpectedStructure }
        return unexpectedFieldType
    }

    /// A map was expected (`valueType` is the Java type of its values).
    static func map(_ json: JSONValue, valueType: String, position: ValuePosition) -> DynamoError {
        if position == .element { return .serialization(parameterizedTypeCast) }
        if case .array = json {
            return .serialization("Unrecognized collection type java.util.Map<java.lang.String, \(valueType)>")
        }
        return unexpectedFieldType
    }

    /// An integer that does not fit its Java type (Jackson's wording).
    static func outOfRange(_ text: String, javaType: String) -> DynamoError {
        let range =
            javaType == "int"
            ? "(\(Int32.min) - \(Int32.max))"
            : "(\(Int64.min) - \(Int64.max))"
        return .serialization("Numeric value (\(text)) out of range of \(javaType) \(range)")
    }

    /// What DynamoDB says when a list element or map value that should itself be a list or a map
    /// is not one: a Java `ClassCastException` leaking out of its deserializer.
    static let parameterizedTypeCast =
        "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class "
        + "(sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module "
        + "java.base of loader 'bootstrap')"

    /// Whether Jackson reads a JSON number as a floating-point token.
    static func isDecimal(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}

// MARK: - Shapes/ShapeValue.swift

extension SerializationMessages {
    /// Thrown by ShapeValue.decodeValue, AttributeValue+JSON.blob.
    static func notConvertedBlob(text: String, problemMessage: String) -> DynamoError {
        .serialization("'\(text)' can not be converted to a Blob: \(problemMessage)")
    }
}
