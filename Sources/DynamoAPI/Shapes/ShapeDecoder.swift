/// The state of one decode: whether requests are being validated, and what was found wrong.
///
/// Decoding and validation happen in one pass that never throws midway. A JSON type that does
/// not fit records a `SerializationException` (the first one wins, and it wins over everything
/// else: DynamoDB's deserializer fails before its validator runs); a broken constraint is
/// recorded and the decode goes on, so that every violation of the request is reported
/// together, as DynamoDB does. A missing required member gets a placeholder value and a
/// "Member must not be null" violation. ``finish()`` throws what was found, in DynamoDB's order.
///
/// The generated shapes call the member helpers below; other code uses
/// ``DynamoShape/decodeRequest(_:)`` or ``DynamoShape/init(json:)``.
public struct ShapeDecoder: Sendable {
    /// Whether constraints are checked (requests on the server) or not (responses on the client).
    let validating: Bool
    /// The violations found so far, in the order DynamoDB reports them.
    var violations: [ConstraintViolation] = []
    /// The first `SerializationException`.
    var failure: DynamoError?
    /// The error DynamoDB sends instead of the violation list, in both wordings (see
    /// `required(_:_:missing:)`).
    var requiredParameterError: DynamoError?
    /// The first `ValidationException` of an attribute value, reported after the violations.
    var valueError: DynamoError?
    /// The map key under which ``valueError`` was found, if it was in a map.
    var valueErrorKey: String?

    /// Whether an invalid attribute value's message goes in the `1 validation error detected: `
    /// envelope (the inputs of DynamoDB's 2026 validator, see ``DynamoShape/envelopesValueErrors``).
    var envelopesValueErrors = false
    /// The members whose violations the 2025 validator listed in this order (see
    /// ``DynamoShape/violationOrder2025``).
    var violationOrder2025: [String] = []
    /// Whether a missing required member makes the 2026 wording answer as the 2025 one
    /// (``ConstraintViolation/missingMemberAnswers2025``).
    var missingMemberAnswers2025 = false

    /// The request parsed again with its member order (``JSONValue/init(parsingWithMemberOrder:)``),
    /// for a PartiQL input's parameters; asked for only when a parameter is invalid.
    var orderedDocument: (@Sendable () -> JSONValue?)?
    /// The `Parameters` lists of ``orderedDocument`` in document order, once parsed.
    private var orderedParameterLists: [JSONValue]?
    /// How many non-null `Parameters` members were decoded so far.
    private var parametersDecoded = 0
    /// Whether an invalid parameter stays with its statement instead of failing the request
    /// (``DynamoShape/defersParameterProblems``).
    var defersParameterProblems = false
    /// The problem of the `Parameters` member decoded last, when deferred.
    private var deferredParameterProblem: DynamoError?

    init(validating: Bool) {
        self.validating = validating
    }

    /// Records a `SerializationException` (the first one is reported) and returns the placeholder
    /// the caller goes on with.
    mutating func fail<T: ShapeValue>(_ error: DynamoError) -> T {
        if failure == nil { failure = error }
        return T.placeholder
    }

    /// Throws what the decode found: the first type error, else CreateTable's own message for a
    /// missing table name, else the constraint violations, else an invalid attribute value.
    func finish() throws(DynamoError) {
        if let failure { throw failure }
        if validating {
            if let requiredParameterError { throw requiredParameterError }
            if !violations.isEmpty {
                let error = ConstraintViolation.error(for: violations, order2025: violationOrder2025)
                if missingMemberAnswers2025, violations.contains(where: \.isMissingMember) {
                    throw error.worded(.v2025)
                }
                throw error
            }
        }
        if let valueError { throw envelopesValueErrors ? valueError.inValidationEnvelope : valueError }
    }

    // MARK: Members

    /// Decodes an optional member; `nil` when it is absent or JSON `null`.
    ///
    /// - Parameters:
    ///   - json: the member's JSON, if present.
    ///   - name: the member's name in DynamoDB's messages (`tableName`).
    ///   - rules: constraints of the member's own value.
    ///   - element: constraints of each list element or map value.
    ///   - key: constraints of each map key.
    @inline(never)
    mutating func value<T: ShapeValue>(
        _ json: JSONValue?, _ name: String,
        rules: ValueRules? = nil, element: ValueRules? = nil, key: ValueRules? = nil
    ) -> T? {
        guard let json else { return nil }
        if case .null = json { return nil }
        let mark = violations.count
        let clean = valueError == nil
        let value = T.decodeValue(json, position: .member, decoder: &self)
        if clean, let error = valueError, name == "expressionAttributeValues", let key = valueErrorKey {
            // DynamoDB names the placeholder whose value is invalid; the 2026 validator of the
            // enveloping inputs (PutItem, UpdateItem, DeleteItem) reports the value's own message.
            valueError = AttributeValueMessages.expressionAttributeValuesContainsInvalidValueKey(
                error, key: key, unwrappedIn2026: envelopesValueErrors)
        }
        if name == "parameters" { notePartiQLParameters(json, clean: clean) }
        if validating, rules != nil || element != nil || key != nil || T.alwaysChecksConstraints {
            checkConstraints(of: value, at: mark, rules: rules, element: element, key: key)
        }
        if violations.count != mark { prefixViolations(from: mark, withMember: name) }
        return value
    }

    /// Rereads an invalid PartiQL `Parameters` member by the statement's own rules (numbers as
    /// BigDecimal, nesting and numbers in document order), and keeps the problem with its
    /// statement where the input defers it.
    private mutating func notePartiQLParameters(_ json: JSONValue, clean: Bool) {
        let ordinal = parametersDecoded
        parametersDecoded += 1
        deferredParameterProblem = nil
        guard clean, let found = valueError else { return }
        let problem = AttributeValue.partiQLParameterProblem(json, ordered: orderedParameters(at: ordinal)) ?? found
        if defersParameterProblems {
            deferredParameterProblem = problem
            valueError = nil
            valueErrorKey = nil
        } else {
            valueError = problem
        }
    }

    /// The `ordinal`th non-null `Parameters` member of the ordered document: the input's own,
    /// else those of its `Statements` or `TransactStatements`, in order.
    private mutating func orderedParameters(at ordinal: Int) -> JSONValue? {
        if orderedParameterLists == nil {
            var lists: [JSONValue] = []
            if let document = orderedDocument?() {
                if let own = document["Parameters"], own != .null { lists.append(own) }
                for listName in ["Statements", "TransactStatements"] {
                    guard case .array(let statements)? = document[listName] else { continue }
                    for statement in statements {
                        if let parameters = statement["Parameters"], parameters != .null { lists.append(parameters) }
                    }
                }
            }
            orderedParameterLists = lists
        }
        guard let lists = orderedParameterLists, ordinal < lists.count else { return nil }
        return lists[ordinal]
    }

    /// The problem of the `Parameters` member decoded last, when the input defers it (then the
    /// request does not fail for it); `nil` when it had none. The generated decoder of
    /// `BatchStatementRequest` calls it right after its parameters.
    package mutating func takeDeferredParameterProblem() -> DynamoError? {
        defer { deferredParameterProblem = nil }
        return deferredParameterProblem
    }

    /// Records the constraints `value` breaks before the violations found inside it.
    ///
    /// Not generic on purpose: the values that carry constraints (strings, numbers, lists, maps,
    /// enumerations) fit an existential's inline buffer, so this costs no allocation, and one
    /// copy of the code serves every member type.
    @inline(never)
    private mutating func checkConstraints(
        of value: any ShapeValue, at mark: Int, rules: ValueRules?, element: ValueRules?, key: ValueRules?
    ) {
        var found = value.violatedConstraints(rules ?? .none)
        let elementFound = value.elementViolations(element: element, key: key)
        if !elementFound.isEmpty { found += elementFound }
        guard !found.isEmpty else { return }
        let rules = rules ?? .none
        let omitsValue = rules.omitsValue(of: value)
        let described = value.javaDescription
        let alone = rules.reportsAlone(value)
        // The 2025 validator printed the model's enum value set where the 2026 one prints its own.
        let found2025 = rules.enumValueSet == nil ? found : value.violatedConstraints(rules.without2026ValueSet)
        violations.insert(
            contentsOf: zip(found, found2025).map {
                ConstraintViolation(
                    path: "", value: omitsValue ? nil : described, constraint: $0.0, path2025: "", value2025: described,
                    constraint2025: $0.0 == $0.1 ? nil : $0.1, omitsValue: omitsValue, bare: rules.bare,
                    reportedAlone: alone)
            },
            at: mark)
    }

    /// Decodes a required member; when it is absent, records "Member must not be null" (or
    /// keeps `missing`, a message DynamoDB sends instead of the violation list) and returns a
    /// placeholder. When it is an empty map or list and `empty` is given, keeps that message
    /// instead (BatchWriteItem's `The requestItems parameter is required for BatchWriteItem`),
    /// or `empty2025` in the 2025 wording where that differs.
    @inline(never)
    mutating func required<T: ShapeValue>(
        _ json: JSONValue?, _ name: String,
        rules: ValueRules? = nil, element: ValueRules? = nil, key: ValueRules? = nil,
        missing: String? = nil, empty: String? = nil, empty2025: String? = nil
    ) -> T {
        if validating, let empty, Self.isEmptyCollection(json) {
            if requiredParameterError == nil { requiredParameterError = .validation(empty, v2025: empty2025 ?? empty) }
            return T.placeholder
        }
        if let value: T = value(json, name, rules: rules, element: element, key: key) { return value }
        if validating {
            if let missing {
                if requiredParameterError == nil { requiredParameterError = .validation(missing) }
            } else {
                violations.append(
                    ConstraintViolation(path: name, value: nil, constraint: ValueRules.notNullText, path2025: name))
            }
        }
        return T.placeholder
    }

    private static func isEmptyCollection(_ json: JSONValue?) -> Bool {
        switch json {
        case .object(let members)?: members.isEmpty
        case .array(let items)?: items.isEmpty
        default: false
        }
    }

    /// Decodes an optional Java `Integer` member.
    @inline(never)
    mutating func integer(_ json: JSONValue?, _ name: String, rules: ValueRules? = nil) -> Int? {
        let value: JavaInteger? = value(json, name, rules: rules)
        return value?.value
    }

    /// Decodes a required Java `Integer` member.
    @inline(never)
    mutating func requiredInteger(_ json: JSONValue?, _ name: String, rules: ValueRules? = nil) -> Int {
        let value: JavaInteger = required(json, name, rules: rules)
        return value.value
    }

    /// Decodes an optional binary member.
    @inline(never)
    mutating func blob(_ json: JSONValue?, _ name: String, rules: ValueRules? = nil) -> [UInt8]? {
        let value: Blob? = value(json, name, rules: rules)
        return value?.bytes
    }

    /// Decodes a required binary member.
    @inline(never)
    mutating func requiredBlob(_ json: JSONValue?, _ name: String, rules: ValueRules? = nil) -> [UInt8] {
        let value: Blob = required(json, name, rules: rules)
        return value.bytes
    }

    // MARK: Paths

    /// Prefixes the paths of the violations recorded since `mark` with the member `name`: lower
    /// camel, except in a value-less violation, which DynamoDB's newer validator writes with the
    /// members' wire names (`Value at 'RequestItems.<table>.member.Keys' …`, measured by the
    /// dynamodb-conformance suite in 2026; map keys and `member` keep their spelling).
    mutating func prefixViolations(from mark: Int, withMember name: String) {
        let wireName = name.prefix(1).uppercased() + name.dropFirst()
        for index in mark..<violations.count {
            prepend(violations[index].omitsValue ? wireName : name, legacy: name, toViolation: index)
        }
    }

    /// Prefixes the paths of the violations recorded since `mark` with `prefix`.
    mutating func prefixViolations(from mark: Int, with prefix: String) {
        for index in mark..<violations.count { prepend(prefix, legacy: prefix, toViolation: index) }
    }

    private mutating func prepend(_ prefix: String, legacy: String, toViolation index: Int) {
        let path = violations[index].path
        violations[index].path = path.isEmpty ? prefix : prefix + "." + path
        let path2025 = violations[index].path2025
        violations[index].path2025 = path2025.isEmpty ? legacy : legacy + "." + path2025
    }

    /// Puts violations recorded while decoding a map's values (`groups`: the key and the range
    /// of violations of each value, in decoding order) in the order DynamoDB walks the map.
    mutating func reorderViolations(_ groups: [(key: String, range: Range<Int>)], keys: some Collection<String>) {
        guard let start = groups.first?.range.lowerBound, let end = groups.last?.range.upperBound else { return }
        let rank = Dictionary(uniqueKeysWithValues: JavaRendering.hashOrder(keys).enumerated().map { ($1, $0) })
        let sorted = groups.sorted { (rank[$0.key] ?? Int.max) < (rank[$1.key] ?? Int.max) }
        var reordered: [ConstraintViolation] = []
        reordered.reserveCapacity(end - start)
        for group in sorted { reordered += violations[group.range] }
        violations.replaceSubrange(start..<end, with: reordered)
    }
}
