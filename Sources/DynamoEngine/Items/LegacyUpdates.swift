import DynamoAPI

/// UpdateItem's legacy `AttributeUpdates`: per attribute an action (`PUT`, `ADD`, `DELETE`) and
/// an optional value, with DynamoDB's checks and semantics.
struct LegacyUpdates {
    private let updates: [(name: String, action: String, value: AttributeValue?)]
    private static let invalid = "One or more parameter values were invalid: "

    init(_ attributeUpdates: [String: AttributeValueUpdate], table: TableDefinition) throws(DynamoError) {
        var updates: [(name: String, action: String, value: AttributeValue?)] = []
        for (name, update) in attributeUpdates.sorted(by: { $0.key < $1.key }) {
            let action = update.action?.rawValue ?? "PUT"
            let value = update.value
            switch (action, value) {
            case (_, nil) where action != "DELETE":
                throw .validation(Self.invalid + "Only DELETE action is allowed when no attribute value is specified")
            case ("DELETE", let value?):
                guard ["SS", "NS", "BS"].contains(value.typeDescriptor) else {
                    throw .validation(Self.invalid + "DELETE action with value is not supported for the type \(value.typeDescriptor)")
                }
            case ("ADD", let value?):
                guard ["L", "SS", "NS", "BS", "N"].contains(value.typeDescriptor) else {
                    throw .validation(Self.invalid + "ADD action is not supported for the type \(value.typeDescriptor)")
                }
            default:
                break
            }
            if table.isKeyAttribute(name) {
                throw .validation(Self.invalid + "Cannot update attribute \(name). This attribute is part of the key")
            }
            updates.append((name, action, value))
        }
        self.updates = updates
    }

    /// The attribute names the updates touch.
    var names: [String] { updates.map(\.name) }

    /// Applies every update to `item`.
    func apply(to item: Item) throws(DynamoError) -> Item {
        var item = item
        for update in updates {
            let current = item[update.name]
            switch update.action {
            case "PUT":
                item[update.name] = update.value
            case "DELETE":
                guard let value = update.value else {
                    item[update.name] = nil
                    continue
                }
                guard let current else { continue }
                item[update.name] = try Self.subtract(value, from: current)
            default:  // ADD
                item[update.name] = try Self.add(update.value!, to: current)
            }
        }
        return item
    }

    private static func add(_ value: AttributeValue, to current: AttributeValue?) throws(DynamoError) -> AttributeValue {
        guard let current else { return value }
        switch (current, value) {
        case (.n(let a), .n(let b)): return .n(try a + b)
        case (.ss(let a), .ss(let b)): return .ss(a + b.filter { !a.contains($0) })
        case (.ns(let a), .ns(let b)): return .ns(a + b.filter { !a.contains($0) })
        case (.bs(let a), .bs(let b)): return .bs(a + b.filter { !a.contains($0) })
        case (.l(let a), .l(let b)): return .l(a + b)
        default: throw .validation("Type mismatch for attribute to update")
        }
    }

    private static func subtract(_ value: AttributeValue, from current: AttributeValue) throws(DynamoError) -> AttributeValue? {
        switch (current, value) {
        case (.ss(let a), .ss(let b)):
            let rest = a.filter { !b.contains($0) }
            return rest.isEmpty ? nil : .ss(rest)
        case (.ns(let a), .ns(let b)):
            let rest = a.filter { !b.contains($0) }
            return rest.isEmpty ? nil : .ns(rest)
        case (.bs(let a), .bs(let b)):
            let rest = a.filter { !b.contains($0) }
            return rest.isEmpty ? nil : .bs(rest)
        default: throw .validation("Type mismatch for attribute to update")
        }
    }
}
