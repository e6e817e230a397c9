import DynamoAPI

/// A comparison operator of a condition expression.
public enum Comparator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// A value in an expression: an attribute of the item, a constant, or a function of them.
///
/// `size` appears in conditions; `ifNotExists`, `listAppend`, `add` and `subtract` in the
/// values of an update's `SET` actions.
public indirect enum Operand: Sendable, Equatable {
    /// The value at a document path of the item (missing if the path leads nowhere).
    case path(DocumentPath)
    /// A constant from `ExpressionAttributeValues` (or a legacy parameter).
    case value(AttributeValue)
    /// `size(operand)`: the length of a string, binary, set, list or map, as a number.
    case size(Operand)
    /// `if_not_exists(path, operand)`.
    case ifNotExists(DocumentPath, Operand)
    /// `list_append(list1, list2)`.
    case listAppend(Operand, Operand)
    /// `operand + operand`.
    case add(Operand, Operand)
    /// `operand - operand`.
    case subtract(Operand, Operand)
}

/// A compiled condition: what a ConditionExpression, FilterExpression or legacy `Expected`,
/// `QueryFilter` or `ScanFilter` says about an item.
///
/// Evaluate it with ``evaluate(_:)``. Comparisons between different types are false, a missing
/// attribute is equal to nothing (so `<>` is true for it), and order comparisons apply to
/// strings, numbers and binary only.
public indirect enum Predicate: Sendable, Equatable {
    case compare(Comparator, Operand, Operand)
    case between(Operand, lower: Operand, upper: Operand)
    case isIn(Operand, [Operand])
    case exists(DocumentPath)
    case notExists(DocumentPath)
    /// `attribute_type(operand, :t)` with the type descriptor (`S`, `N`, `SS`, …).
    case hasType(Operand, String)
    case beginsWith(Operand, Operand)
    case contains(Operand, Operand)
    case and(Predicate, Predicate)
    case or(Predicate, Predicate)
    case not(Predicate)
}
