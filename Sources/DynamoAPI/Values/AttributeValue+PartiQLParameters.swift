extension AttributeValue {
    /// The first problem of a PartiQL statement's `Parameters`, in document order, as the
    /// service reports it: a value nested deeper than an item may be ("Nesting Levels have
    /// exceeded supported limits: …"), a number PartiQL cannot convert ("The parameter cannot
    /// be converted to a numeric value: <text>") or one out of DynamoDB's range, else the
    /// problem ``init(json:)`` finds. `nil` when every parameter decodes.
    ///
    /// The service reads parameters one after another, each from the outside in, and reports
    /// whichever problem it reaches first (eu-west-2, October 2026). A map's members are walked
    /// in the order they were written when `ordered` holds the same parameters parsed by
    /// ``JSONValue/init(parsingWithMemberOrder:)``, else in key order.
    ///
    /// - Parameters:
    ///   - json: the `Parameters` member as the request's tree holds it.
    ///   - ordered: the same member from a tree that keeps member order, if there is one.
    package static func partiQLParameterProblem(_ json: JSONValue, ordered: JSONValue? = nil) -> DynamoError? {
        guard case .array(let parameters) = json else { return nil }
        var walked = parameters
        if case .array(let orderedParameters)? = ordered, orderedParameters.count == parameters.count {
            walked = orderedParameters
        }
        for (parameter, orderedParameter) in zip(parameters, walked) {
            if let problem = partiQLProblem(orderedParameter, wrappers: 0) { return problem }
            do {
                _ = try AttributeValue(json: parameter)
            } catch {
                return error
            }
        }
        return nil
    }

    private static func partiQLProblem(_ json: JSONValue, wrappers: Int) -> DynamoError? {
        guard let members = json.orderedMembers else { return nil }
        let present = members.filter { $0.value != .null }
        guard present.count == 1, let (type, payload) = present.first else { return nil }
        switch (type, payload) {
        case ("N", .string(let text)):
            return partiQLNumberProblem(text)
        case ("NS", .array(let elements)):
            for case .string(let text) in elements {
                if let problem = partiQLNumberProblem(text) { return problem }
            }
            return nil
        case ("M", .object):
            if wrappers + 1 > ItemSize.maximumNestingWrappers {
                return AttributeValueMessages.nestingLevelsHaveExceededSupported
            }
            for (_, value) in payload.orderedMembers ?? [] {
                if let problem = partiQLProblem(value, wrappers: wrappers + 1) { return problem }
            }
            return nil
        case ("L", .array(let elements)):
            if wrappers + 1 > ItemSize.maximumNestingWrappers {
                return AttributeValueMessages.nestingLevelsHaveExceededSupported
            }
            for value in elements {
                if let problem = partiQLProblem(value, wrappers: wrappers + 1) { return problem }
            }
            return nil
        default:
            return nil
        }
    }

    private static func partiQLNumberProblem(_ text: String) -> DynamoError? {
        do {
            _ = try DynamoNumber(partiQL: text)
            return nil
        } catch {
            switch error {
            case .unconvertible: return DynamoNumber.unconvertibleParameter(text)
            case .invalid(let problem): return problem
            }
        }
    }
}
