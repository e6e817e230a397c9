/// A structure of DynamoDB's API: an operation's input or output, or a structure inside one.
///
/// Every shape is generated from botocore's service model by `scripts/generate-shapes.py`.
/// The server decodes and validates requests with ``decodeRequest(_:)`` and writes responses
/// with ``encode(to:)``; the client does the opposite with ``encode(to:)`` and ``init(json:)``.
///
/// ```swift
/// let input = try PutItemInput.decodeRequest(try JSONValue(parsing: body))
/// var writer = JSONWriter()
/// PutItemOutput(attributes: nil).encode(to: &writer)
/// ```
public protocol DynamoShape: Sendable, Hashable {
    /// The shape's name in the service model (`PutItemInput`).
    static var shapeName: String { get }

    /// Decodes the members of a JSON object, recording problems in `decoder`. Generated code
    /// calls this; use ``decodeRequest(_:)`` or ``init(json:)`` instead.
    init(jsonObject members: [String: JSONValue], decoder: inout ShapeDecoder)

    /// Writes the shape as a JSON object, with only the members that are present, under their
    /// wire names.
    func encode(to writer: inout JSONWriter)

    /// Whether DynamoDB's 2026 request validator answers an invalid attribute value of this
    /// input in the `1 validation error detected: ` envelope (PutItem, UpdateItem, DeleteItem;
    /// set by the generator's `ENVELOPED_INPUTS`).
    static var envelopesValueErrors: Bool { get }

    /// Whether an invalid PartiQL parameter fails only its own statement (set by the
    /// generator for BatchExecuteStatement).
    static var defersParameterProblems: Bool { get }

    /// Whether the input carries PartiQL parameters (set by the generator for
    /// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction).
    static var readsParametersInOrder: Bool { get }
}

extension DynamoShape {
    /// Most inputs report an invalid attribute value bare.
    public static var envelopesValueErrors: Bool { false }

    /// Whether an invalid PartiQL parameter fails only its own statement (BatchExecuteStatement,
    /// whose statement answers `Error {ValidationError, …}`) instead of the request.
    public static var defersParameterProblems: Bool { false }

    /// Whether the input carries PartiQL parameters, whose first problem DynamoDB reports in
    /// document order (the server then offers ``decodeRequest(_:orderedDocument:)`` the body).
    public static var readsParametersInOrder: Bool { false }

    /// Decodes a request body as DynamoDB does: JSON types first, then every constraint of the
    /// service model.
    ///
    /// Messages the 2026 rollout changed carry both forms (see ``DynamoError/worded(_:)``).
    ///
    /// - Throws: `SerializationException` for a member whose JSON type does not fit (with
    ///   DynamoDB's message), `ValidationException` listing the constraint violations
    ///   (`1 validation error detected: Value null at 'tableName' failed to satisfy
    ///   constraint: Member must not be null`, at most ten of them).
    ///
    /// - Parameters:
    ///   - json: the request's JSON tree.
    ///   - orderedDocument: the same body parsed with its member order
    ///     (``JSONValue/init(parsingWithMemberOrder:)``), asked for only when a PartiQL
    ///     parameter is invalid, to report the first problem as written.
    public static func decodeRequest(
        _ json: JSONValue, orderedDocument: (@Sendable () -> JSONValue?)? = nil
    ) throws(DynamoError) -> Self {
        var decoder = ShapeDecoder(validating: true)
        decoder.envelopesValueErrors = envelopesValueErrors
        decoder.defersParameterProblems = defersParameterProblems
        decoder.orderedDocument = orderedDocument
        decoder.violationOrder2025 = ConstraintViolation.order2025[shapeName] ?? []
        decoder.missingMemberAnswers2025 = ConstraintViolation.missingMemberAnswers2025.contains(shapeName)
        let value = decodeTopLevel(json, decoder: &decoder)
        try decoder.finish()
        return value
    }

    /// Decodes a shape without checking constraints (a response, on the client). Unknown
    /// members are ignored, JSON `null` counts as absent, and a missing required member gets an
    /// empty placeholder.
    ///
    /// - Throws: `SerializationException` for a member whose JSON type does not fit.
    public init(json: JSONValue) throws(DynamoError) {
        var decoder = ShapeDecoder(validating: false)
        self = Self.decodeTopLevel(json, decoder: &decoder)
        try decoder.finish()
    }

    /// The shape's JSON bytes.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        encode(to: &writer)
        return writer.bytes
    }

    private static func decodeTopLevel(_ json: JSONValue, decoder: inout ShapeDecoder) -> Self {
        switch json {
        case .object(let members): return Self(jsonObject: members, decoder: &decoder)
        case .null: return Self(jsonObject: [:], decoder: &decoder)
        default:
            decoder.failure = SerializationMessages.structure(
                json, className: "\(SerializationMessages.modelPackage).\(shapeName)", position: .member)
            return Self(jsonObject: [:], decoder: &decoder)
        }
    }
}

/// The input of an operation, tied to its output type and wire target.
///
/// ```swift
/// func send<Input: DynamoOperationInput>(_ input: Input) async throws -> Input.Output
/// ```
public protocol DynamoOperationInput: DynamoShape {
    /// The operation's output.
    associatedtype Output: DynamoShape
    /// The `X-Amz-Target` header of the operation (`DynamoDB_20120810.PutItem`).
    static var target: String { get }
}

// Every generated structure is a member value for the generic decoding and encoding code.
extension ShapeValue where Self: DynamoShape {
    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Self {
        guard case .object(let members) = json else {
            return decoder.fail(SerializationMessages.structure(json, className: javaTypeName, position: position))
        }
        return Self(jsonObject: members, decoder: &decoder)
    }

    func encodeValue(to writer: inout JSONWriter) { encode(to: &writer) }

    static var javaTypeName: String { "\(SerializationMessages.modelPackage).\(shapeName)" }

    static var placeholder: Self {
        var decoder = ShapeDecoder(validating: false)
        return Self(jsonObject: [:], decoder: &decoder)
    }
}

/// A string enumeration of the model: known values are static members, unknown ones are kept.
protocol ShapeEnum: ShapeValue, RawRepresentable where RawValue == String {
    init(rawValue: String)
    /// Whether the model lists this value.
    var isKnown: Bool { get }
    /// The value set as DynamoDB prints it in `Member must satisfy enum value set: [...]`.
    static var valueSetDescription: String { get }
}

extension ShapeEnum {
    static var alwaysChecksConstraints: Bool { true }

    static func decodeValue(_ json: JSONValue, position: ValuePosition, decoder: inout ShapeDecoder) -> Self {
        Self(rawValue: String.decodeValue(json, position: position, decoder: &decoder))
    }

    func encodeValue(to writer: inout JSONWriter) { writer.write(string: rawValue) }
    func appendJava(to text: inout String) { text += rawValue }
    static var javaTypeName: String { "java.lang.String" }
    static var placeholder: Self { Self(rawValue: "") }

    func violatedConstraints(_ rules: ValueRules) -> [String] {
        isKnown || rules.enumCheckedLater ? [] : [ValueRules.enumText(rules.enumValueSet ?? Self.valueSetDescription)]
    }

    static func constraintTexts(_ rules: ValueRules) -> [String] {
        [ValueRules.enumText(valueSetDescription)]
    }
}
