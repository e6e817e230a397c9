import DynamoAPI
import DynamoExpressions
import Foundation

/// Resolves a ``FetchPredicate`` against an entity: property names become storage names,
/// constants become DynamoDB values through the store's value encoding (``PersistentValue``),
/// and whatever DynamoDB cannot evaluate is refused with the reason.
struct PredicateResolver {
    let entity: EntityDescription
    let model: StoreModel?

    /// DynamoDB's limit on the operands of one `IN`.
    static let maximumInOperands = 100

    func resolve(_ predicate: FetchPredicate) throws(FetchPredicateError) -> StoragePredicate {
        switch predicate {
        case .constant(let value):
            return .constant(value)
        case .and(let parts):
            var resolved: [StoragePredicate] = []
            for part in parts { resolved.append(try resolve(part)) }
            return .all(resolved)
        case .or(let parts):
            var resolved: [StoragePredicate] = []
            for part in parts { resolved.append(try resolve(part)) }
            return .any(resolved)
        case .not(let inner):
            return .negation(try resolve(inner))
        case .compare(let path, let op, let value):
            let target = try property(path)
            if value == .null {
                switch op {
                case .equal: return .notExists(target.storageName)
                case .notEqual: return .exists(target.storageName)
                default: throw FetchPredicateError("\(path) \(op.rawValue) nil: only == and != can compare with nil")
                }
            }
            return .compare(target.storageName, op, try target.encode(value, path: path))
        case .between(let path, let low, let high):
            let target = try property(path)
            let lower = try target.encode(low, path: path), upper = try target.encode(high, path: path)
            try target.requireOrdered(path, "BETWEEN")
            // DynamoDB rejects BETWEEN whose lower bound is above the upper one; it matches nothing.
            if let order = Ordering.compare(lower, upper), order > 0 { return .constant(false) }
            return .between(target.storageName, lower, upper)
        case .isIn(let path, let value):
            let target = try property(path)
            guard case .list(let elements) = value else {
                throw FetchPredicateError("\(path) IN needs a list, not \(value.kindDescription)")
            }
            var encoded: [AttributeValue] = []
            for element in elements {
                guard element != .null else {
                    throw FetchPredicateError("\(path) IN: nil cannot be a member of an IN list; test \(path) == nil instead")
                }
                let value = try target.encode(element, path: path)
                if !encoded.contains(value) { encoded.append(value) }
            }
            let chunks = stride(from: 0, to: encoded.count, by: Self.maximumInOperands).map {
                StoragePredicate.isIn(target.storageName, Array(encoded[$0..<min($0 + Self.maximumInOperands, encoded.count)]))
            }
            return .any(chunks)
        case .beginsWith(let path, let value), .contains(let path, let value):
            let isPrefix: Bool = if case .beginsWith = predicate { true } else { false }
            let keyword = isPrefix ? "BEGINSWITH" : "CONTAINS"
            let target = try property(path)
            let operand: AttributeValue
            switch (target.scalarType, value) {
            case ("S", .string(let text)): operand = .s(text)
            case ("B", .data(let bytes)): operand = .b([UInt8](bytes))
            case ("S", _), ("B", _):
                throw FetchPredicateError("\(path) \(keyword) needs \(target.scalarType == "S" ? "a string" : "data"), not \(value.kindDescription)")
            default:
                throw FetchPredicateError(
                    "\(path) \(keyword): \(keyword) applies to string and data attributes; \(entity.name).\(path) is \(target.typeName)")
            }
            return isPrefix ? .beginsWith(target.storageName, operand) : .contains(target.storageName, operand)
        }
    }

    /// What a key path names: an attribute, or a to-one relationship (by its destination key).
    private struct Target {
        var storageName: String
        var attribute: AttributeDescription
        var relationship: RelationshipDescription?
        var entityName: String

        var scalarType: String? { attribute.type.keyScalarType }
        var typeName: String { relationship.map { "the to-one relationship to \($0.destination)" } ?? attribute.type.rawValue }

        func requireOrdered(_ path: String, _ keyword: String) throws(FetchPredicateError) {
            if attribute.type == .bool || attribute.type == .codable {
                throw FetchPredicateError("\(path) \(keyword): \(entityName).\(path) is \(attribute.type.rawValue), which has no order")
            }
        }

        func encode(_ value: PredicateValue, path: String) throws(FetchPredicateError) -> AttributeValue {
            if let relationship {
                guard case .object(let id) = value else {
                    if let encoded = try? encodeScalar(value) { return encoded }
                    throw FetchPredicateError(
                        "\(entityName).\(relationship.name) is a relationship to \(relationship.destination); compare it with a \(relationship.destination) ObjectID, not \(value.kindDescription)"
                    )
                }
                guard id.entityName == relationship.destination, let key = id.key[attribute.storageName] ?? id.key.values.first, id.key.count == 1
                else {
                    throw FetchPredicateError(
                        "\(entityName).\(relationship.name) is a relationship to \(relationship.destination), not to \(id.entityName)")
                }
                return key
            }
            if case .object(let id) = value {
                throw FetchPredicateError("\(entityName).\(path) is \(attribute.type.rawValue), not a relationship; it cannot be compared with \(id)")
            }
            return try encodeScalar(value)
        }

        private func encodeScalar(_ value: PredicateValue) throws(FetchPredicateError) -> AttributeValue {
            let what = relationship == nil ? "\(entityName).\(attribute.name) (\(attribute.type.rawValue))" : "\(entityName).\(relationship!.name)"
            if attribute.type == .codable {
                throw FetchPredicateError("\(what) is stored as a map; only == nil and != nil can test it")
            }
            let swiftValue: any PersistentValue
            switch value {
            case .string(let text): swiftValue = text
            case .int(let number): swiftValue = number
            case .double(let number): swiftValue = number
            case .decimal(let number): swiftValue = number
            case .bool(let flag): swiftValue = flag
            case .date(let date): swiftValue = date
            case .uuid(let uuid): swiftValue = uuid
            case .data(let data): swiftValue = data
            case .url(let url): swiftValue = url
            case .null, .list, .object, .variable:
                throw FetchPredicateError("\(what) cannot be compared with \(value.kindDescription)")
            }
            do {
                // Any number compares with any numeric attribute (`age > 3.5` on an Int16), so a
                // number is stored as its own type's `N`, without the attribute's range check.
                if attribute.type.keyScalarType == "N", swiftValue is any PersistentNumber || swiftValue is Decimal {
                    if let stored = try swiftValue.storedValue() { return stored }
                }
                if let stored = try StoredValueCodec.encode(swiftValue, for: attribute, entity: entityName) { return stored }
            } catch {
                throw FetchPredicateError("\(what) cannot be compared with \(value.formatted): \(error)")
            }
            throw FetchPredicateError("\(what) cannot be compared with \(value.formatted)")
        }
    }

    private func property(_ path: String) throws(FetchPredicateError) -> Target {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let attribute = entity.attribute(named: parts[0]) {
            guard parts.count == 1 else {
                throw FetchPredicateError(
                    "key path \(path): \(entity.name).\(parts[0]) is \(attribute.type.rawValue); key paths into attribute values are not supported")
            }
            return Target(storageName: attribute.storageName, attribute: attribute, relationship: nil, entityName: entity.name)
        }
        guard let relationship = entity.relationship(named: parts[0]) else {
            throw FetchPredicateError("\(entity.name) has no property named \(parts[0])")
        }
        if relationship.isToMany {
            throw FetchPredicateError(
                "key path \(path) goes through the to-many relationship \(entity.name).\(relationship.name); DynamoDB expressions cannot test the members of a relationship"
            )
        }
        guard let model, let destination = model.entity(named: relationship.destination),
            let destinationKey = destination.attribute(named: destination.hashKey)
        else {
            throw FetchPredicateError(
                "key path \(path): the destination entity \(relationship.destination) is not known; build the request with the store's model")
        }
        if parts.count == 2 && parts[1] != destination.hashKey || parts.count > 2 {
            throw FetchPredicateError(
                "key path \(path) reads \(destination.name).\(parts[1...].joined(separator: ".")) through \(entity.name).\(relationship.name); DynamoDB cannot join tables, so only \(relationship.name).\(destination.hashKey) (the stored key) can be compared"
            )
        }
        // Compared as the destination's key attribute: that is what the relationship stores.
        return Target(storageName: relationship.storageName, attribute: destinationKey, relationship: relationship, entityName: entity.name)
    }
}
