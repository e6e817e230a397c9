/// DynamoDB's rules for how many bytes an item counts for (the 400 KB limit, capacity units).
///
/// - Strings: UTF-8 length. Binary: byte length. Numbers: `DynamoNumber.storageSize`.
/// - Null and Boolean: 1 byte.
/// - Lists and maps: 3 bytes plus 1 byte per element, plus the elements (map keys count as
///   attribute names).
/// - Sets: the sum of their elements.
/// - Every attribute name counts its UTF-8 length.
public enum ItemSize {
    /// The largest item DynamoDB stores: 400 KB.
    public static let maximum = 400 * 1024

    /// The size of an item in bytes.
    public static func of(_ item: Item) -> Int {
        var total = 0
        for (name, value) in item { total += name.utf8.count + of(value) }
        return total
    }

    /// The size of one value in bytes (without its attribute name).
    public static func of(_ value: AttributeValue) -> Int {
        switch value {
        case .s(let text): text.utf8.count
        case .n(let number): number.storageSize
        case .b(let bytes): bytes.count
        case .ss(let texts): texts.reduce(0) { $0 + $1.utf8.count }
        case .ns(let numbers): numbers.reduce(0) { $0 + $1.storageSize }
        case .bs(let blobs): blobs.reduce(0) { $0 + $1.count }
        case .m(let map): map.reduce(3) { $0 + 1 + $1.key.utf8.count + of($1.value) }
        case .l(let values): values.reduce(3) { $0 + 1 + of($1) }
        case .null, .bool: 1
        }
    }
}

extension ItemSize {
    /// The most map or list levels DynamoDB stores above a scalar inside one attribute: 31
    /// wrappers are accepted, 32 are not (the documented 32 levels, counting the attribute).
    public static let maximumNestingWrappers = 31

    /// Rejects an item with an attribute nested deeper than DynamoDB stores.
    ///
    /// - Throws: `ValidationException` "Nesting Levels have exceeded supported limits: Attributes
    ///   in the item have nested levels beyond supported limit".
    public static func checkNesting(_ item: Item) throws(DynamoError) {
        for value in item.values where wrappers(value, limit: maximumNestingWrappers + 1) > maximumNestingWrappers {
            throw AttributeValueMessages.nestingLevelsHaveExceededSupported
        }
    }

    /// Refuses an item with an empty attribute name: `nested` false looks at the item's own
    /// names, `true` at the keys of the maps inside it. DynamoDB checks the item's names before
    /// the nesting depth and the maps' keys after it (TransactWriteItems, paritysuite's
    /// deepRequests test, captured in ten regions on 2026-10-09).
    ///
    /// - Throws: `ValidationException` "Empty attribute name".
    public static func checkAttributeNames(_ item: Item, nested: Bool) throws(DynamoError) {
        func named(_ value: AttributeValue) -> Bool {
            switch value {
            case .m(let map): map.keys.allSatisfy { !$0.isEmpty } && map.values.allSatisfy(named)
            case .l(let list): list.allSatisfy(named)
            default: true
            }
        }
        let valid = nested ? item.values.allSatisfy(named) : item.keys.allSatisfy { !$0.isEmpty }
        guard valid else { throw AttributeValueMessages.emptyAttributeName }
    }

    /// The checks of an item's names and depth, in DynamoDB's order.
    public static func checkNamesAndNesting(_ item: Item) throws(DynamoError) {
        try checkAttributeNames(item, nested: false)
        try checkNesting(item)
        try checkAttributeNames(item, nested: true)
    }

    /// An item's size and what ``checkNamesAndNesting(_:)`` looks at, found in one walk of the
    /// item (a write of a whole item needs both; walking it once for each costs four walks).
    ///
    /// ```swift
    /// let measured = ItemSize.measure(item)
    /// if measured.size > ItemSize.maximum { throw tooLarge }
    /// try measured.checkNamesAndNesting()
    /// ```
    public static func measure(_ item: Item) -> Measurement {
        var measurement = Measurement()
        for (name, value) in item {
            if name.isEmpty { measurement.hasEmptyName = true }
            var walk = Walk()
            measurement.size += name.utf8.count + walk.size(of: value, depth: 0)
            measurement.deepestWrappers = max(measurement.deepestWrappers, walk.deepestWrappers)
            if walk.hasEmptyNestedName { measurement.hasEmptyNestedName = true }
        }
        return measurement
    }

    /// What ``measure(_:)`` found in an item.
    public struct Measurement: Sendable, Equatable {
        /// The item's size (``of(_:)-swift.type.method``).
        public var size = 0
        /// Whether one of the item's own attribute names is empty.
        public var hasEmptyName = false
        /// The most maps and lists wrapping one value of the item.
        public var deepestWrappers = 0
        /// Whether a key of a map inside the item is empty.
        public var hasEmptyNestedName = false

        /// Throws what ``ItemSize/checkNamesAndNesting(_:)`` throws for the measured item, in
        /// the same order.
        public func checkNamesAndNesting() throws(DynamoError) {
            if hasEmptyName { throw AttributeValueMessages.emptyAttributeName }
            if deepestWrappers > ItemSize.maximumNestingWrappers { throw AttributeValueMessages.nestingLevelsHaveExceededSupported }
            if hasEmptyNestedName { throw AttributeValueMessages.emptyAttributeName }
        }
    }

    /// One attribute's walk for ``measure(_:)``: its size as ``of(_:)-swift.type.method`` counts
    /// it, its depth, its maps' names.
    private struct Walk {
        var deepestWrappers = 0
        var hasEmptyNestedName = false

        mutating func size(of value: AttributeValue, depth: Int) -> Int {
            switch value {
            case .m(let map):
                deepestWrappers = max(deepestWrappers, depth + 1)
                var total = 3
                for (key, member) in map {
                    if key.isEmpty { hasEmptyNestedName = true }
                    total += 1 + key.utf8.count + size(of: member, depth: depth + 1)
                }
                return total
            case .l(let values):
                deepestWrappers = max(deepestWrappers, depth + 1)
                var total = 3
                for member in values { total += 1 + size(of: member, depth: depth + 1) }
                return total
            default:
                return ItemSize.of(value)
            }
        }
    }

    /// How many maps and lists wrap the deepest value (counting stops past `limit`).
    private static func wrappers(_ value: AttributeValue, limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        switch value {
        case .m(let map): return 1 + (map.values.map { wrappers($0, limit: limit - 1) }.max() ?? 0)
        case .l(let list): return 1 + (list.map { wrappers($0, limit: limit - 1) }.max() ?? 0)
        default: return 0
        }
    }
}
