import DynamoAPI

/// The one entry point of a request's expressions: validates every expression and legacy
/// parameter of the request together, in DynamoDB's order and with its messages, and compiles
/// them.
///
/// Order of checks: expression and legacy parameters mixed; names or values without an
/// expression; the two maps (empty, invalid keys); the legacy parameters; then each expression
/// (empty, size, syntax, static checks, placeholders and operand types) in the order DynamoDB
/// reads them; finally placeholders left unused by all of them. Parsing is cached by text.
public enum ExpressionCompiler {
    /// DynamoDB's limit on an expression's length, in UTF-8 bytes.
    public static let maximumExpressionSize = 4096
    /// DynamoDB's limit on a placeholder's length, in UTF-8 bytes.
    public static let maximumPlaceholderSize = 255

    /// Validates and compiles a request's expressions.
    ///
    /// - Throws: `DynamoError` `ValidationException` with DynamoDB's message, e.g. "Invalid
    ///   ConditionExpression: Syntax error; token: \"=\", near: \"a = = b\"" or "Value provided
    ///   in ExpressionAttributeValues unused in expressions: keys: {:x}".
    ///
    /// ```swift
    /// var input = ExpressionInput(.updateItem)
    /// input.updateExpression = "SET n = n + :one"
    /// input.values = [":one": .n(DynamoNumber(1))]
    /// let update = try ExpressionCompiler.compile(input).update!
    /// try update.apply(to: ["pk": .s("k"), "n": .n(DynamoNumber(1))])   // n == 2
    /// ```
    public static func compile(_ input: ExpressionInput) throws(DynamoError) -> CompiledExpressions {
        // Most writes carry no expression and no legacy parameter: nothing to check or compile.
        if input.isEmpty { return CompiledExpressions() }
        try checkParameters(input)
        if input.conditionalOperator != nil {
            let counts = [input.expected?.count, input.queryFilter?.count, input.scanFilter?.count].compactMap { $0 }
            if counts.isEmpty {
                throw ExpressionMessages.conditionalOperatorWithoutConditions
            }
            if counts.contains(where: { $0 <= 1 }) {
                throw ExpressionMessages.conditionalOperatorWithOneCondition
            }
        }
        var compiled = CompiledExpressions()
        // Legacy parameters (never together with expressions, see above).
        if let expected = input.expected {
            compiled.condition = try LegacyTranslation.expected(expected, conditionalOperator: input.conditionalOperator)
        }
        if let updates = input.attributeUpdates {
            compiled.update = try LegacyTranslation.attributeUpdates(updates)
        }
        if let filter = input.queryFilter ?? input.scanFilter {
            compiled.filter = try LegacyTranslation.filter(filter, conditionalOperator: input.conditionalOperator)
        }
        if let names = input.attributesToGet {
            compiled.projection = try LegacyTranslation.attributesToGet(names)
        }
        if let keyConditions = input.keyConditions, input.keyConditionExpression == nil {
            compiled.keyCondition = try KeyConditionTranslation.fromLegacy(keyConditions)
        }
        // Expressions.
        var resolver = Resolver(names: input.names, values: input.values)
        for kind in input.operation.checkingOrder {
            guard let text = input.text(of: kind) else { continue }
            do throws(ExpressionProblem) {
                try compileExpression(text, kind: kind, resolver: &resolver, into: &compiled)
            } catch {
                throw error.error(in: kind)
            }
        }
        try checkUnused(input, resolver)
        if let keyPredicate = compiled.keyConditionPredicate {
            compiled.keyCondition = try KeyConditionTranslation.fromExpression(keyPredicate)
        }
        return compiled
    }

    private static func compileExpression(
        _ text: String, kind: ExpressionKind, resolver: inout Resolver,
        into compiled: inout CompiledExpressions
    ) throws(ExpressionProblem) {
        if text.isEmpty { throw Message.empty }
        let size = text.utf8.count
        if size > maximumExpressionSize { throw Message.sizeExceeded(kind, size: size) }
        let raw = try ExpressionCache.shared.entry(text, grammar: kind.grammar).get()
        switch (kind, raw) {
        case (.condition, .condition(let condition)):
            compiled.condition = try resolver.condition(condition)
        case (.filter, .condition(let condition)):
            compiled.filter = try resolver.condition(condition)
        case (.keyCondition, .condition(let condition)):
            compiled.keyConditionPredicate = try resolver.condition(condition)
        case (.searchCondition, .condition(let condition)):
            compiled.searchCondition = try resolver.condition(condition)
        case (.update, .update(let clauses)):
            compiled.update = try resolver.update(clauses)
        case (.projection, .projection(let paths)):
            compiled.projection = try resolver.projection(paths)
        default:
            break
        }
    }

    /// The checks on which parameters are present and on the two placeholder maps.
    private static func checkParameters(_ input: ExpressionInput) throws(DynamoError) {
        let expressions = input.operation.expressionParameters.filter { input.text(of: $0) != nil }
        let legacy = input.legacyParametersPresent
        if !expressions.isEmpty, !legacy.isEmpty {
            throw ParameterMessages.mixed(legacy: legacy, expressions: expressions.map(\.rawValue))
        }
        if input.names != nil, expressions.isEmpty {
            throw ParameterMessages.namesWithoutExpressions
        }
        let valueExpressions = input.operation.expressionParameters.filter { $0 != .projection }
        if input.values != nil, !valueExpressions.contains(where: { input.text(of: $0) != nil }) {
            throw ParameterMessages.valuesWithoutExpressions(
                nullParameters: valueExpressions.map(\.rawValue), rewordedIn2026: input.rewordedValidator)
        }
        if let names = input.names {
            if names.isEmpty { throw ExpressionMessages.expressionAttributeNamesEmpty }
            let allValid = names.allSatisfy { isValidPlaceholder($0.key, sigil: UInt8(ascii: "#")) && !$0.value.isEmpty }
            for key in allValid ? [] : names.keys.sorted() {
                try checkPlaceholderKey(key, sigil: UInt8(ascii: "#"), map: "ExpressionAttributeNames")
                if names[key]!.isEmpty {
                    throw ExpressionMessages.expressionAttributeNamesContainsInvalidValueEmpty(key: key)
                }
            }
        }
        if let values = input.values {
            if values.isEmpty { throw ExpressionMessages.expressionAttributeValuesEmpty }
            let allValid = values.keys.allSatisfy { isValidPlaceholder($0, sigil: UInt8(ascii: ":")) }
            for key in allValid ? [] : values.keys.sorted() {
                try checkPlaceholderKey(key, sigil: UInt8(ascii: ":"), map: "ExpressionAttributeValues")
            }
        }
    }

    private static func checkPlaceholderKey(_ key: String, sigil: UInt8, map: String) throws(DynamoError) {
        let size = key.utf8.count
        if size > maximumPlaceholderSize {
            throw ExpressionMessages.placeholderTooLong(map: map, size: size)
        }
        if !hasPlaceholderSyntax(key, sigil: sigil) {
            throw ExpressionMessages.placeholderSyntaxError(map: map, key: key)
        }
    }

    /// Whether ``checkPlaceholderKey(_:sigil:map:)`` passes `key`.
    private static func isValidPlaceholder(_ key: String, sigil: UInt8) -> Bool {
        key.utf8.count <= maximumPlaceholderSize && hasPlaceholderSyntax(key, sigil: sigil)
    }

    /// The sigil, then one or more of `[0-9A-Za-z_]` (read as contiguous bytes: every request
    /// with expressions checks each of its placeholders).
    private static func hasPlaceholderSyntax(_ key: String, sigil: UInt8) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            guard bytes.count > 1, bytes[0] == sigil else { return false }
            for byte in bytes.dropFirst() {
                let isWordByte =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F
                if !isWordByte { return false }
            }
            return true
        }
    }

    private static func checkUnused(_ input: ExpressionInput, _ resolver: Resolver) throws(DynamoError) {
        if let names = input.names {
            let unused = resolver.names.unusedKeys
            if !unused.isEmpty {
                let keys = JavaHashOrder.order(unused, tableFor: names.count).joined(separator: ", ")
                throw ExpressionMessages.unusedAttributeNames(keys: keys)
            }
        }
        if let values = input.values {
            let unused = resolver.values.unusedKeys
            if !unused.isEmpty {
                let keys = JavaHashOrder.order(unused, tableFor: values.count).joined(separator: ", ")
                throw ExpressionMessages.unusedAttributeValues(keys: keys)
            }
        }
    }
}
