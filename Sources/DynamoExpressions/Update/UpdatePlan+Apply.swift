import DynamoAPI

extension UpdatePlan {
    /// DynamoDB's runtime messages for updates.
    enum RuntimeMessage {
        static let incorrectType = "An operand in the update expression has an incorrect data type"
        static let legacyTypeMismatch = "Type mismatch for attribute to update"
        static let missingAttribute = "The provided expression refers to an attribute that does not exist in the item"
        static let invalidPath = "The document path provided in the update expression is invalid for update"
    }

    /// Why working out a `SET` value failed.
    enum ValueFailure: Error {
        case incorrectType
        case missingAttribute
        case number(DynamoError)
    }

    /// Applies the update to `item` (the stored item, or the request's key when there is none)
    /// and returns the new item.
    ///
    /// Every value is computed from `item` as it was. Problems are reported in DynamoDB's order:
    /// a path into a value that is not the map or list it needs, then a wrong type anywhere, then
    /// section by section from the last one, a path that cannot be written and an attribute a
    /// `SET` reads that is missing. Setting a list index past the end appends (in index order);
    /// removing list elements shifts the rest down, positions counted in the old list; an
    /// emptied set is removed.
    ///
    /// - Throws: `DynamoError` `ValidationException`: "The document path provided in the update
    ///   expression is invalid for update", "An operand in the update expression has an incorrect
    ///   data type" ("Type mismatch for attribute to update" for legacy updates), "The provided
    ///   expression refers to an attribute that does not exist in the item", or a number overflow.
    public func apply(to item: Item) throws(DynamoError) -> Item {
        let typeMessage = isLegacy ? RuntimeMessage.legacyTypeMismatch : RuntimeMessage.incorrectType
        for action in actions where action.path.elements.count > 1 {
            if action.path.parentValue(in: item) != nil, !action.path.isWritable(in: item) {
                throw .validation(RuntimeMessage.invalidPath)
            }
        }
        var results = [AttributeValue??](repeating: nil, count: actions.count)
        var missing = [Bool](repeating: false, count: actions.count)
        for (index, action) in actions.enumerated() {
            switch action {
            case .set(_, let operand):
                do throws(ValueFailure) {
                    results[index] = .some(try operand.updateValue(in: item))
                } catch {
                    switch error {
                    case .incorrectType: throw .validation(typeMessage)
                    case .number(let failure): throw failure
                    case .missingAttribute: missing[index] = true
                    }
                }
            case .remove:
                results[index] = .some(nil)
            case .add(let path, let value):
                let current = path.isWritable(in: item) ? path.value(in: item) : nil
                results[index] = .some(try Self.added(value, to: current, legacy: isLegacy, typeMessage: typeMessage))
            case .delete(let path, let value):
                let current = path.isWritable(in: item) ? path.value(in: item) : nil
                guard let current else { continue }
                guard current.typeDescriptor == value.typeDescriptor else { throw .validation(typeMessage) }
                results[index] = .some(SetAlgebra.subtract(value, from: current))
            }
        }
        // Sections from the last to the first (numbered from 0 as written; a number with no
        // action matches nothing), without building a set of them on every update.
        for section in stride(from: sections.max() ?? -1, through: 0, by: -1) {
            for index in actions.indices where sections[index] == section {
                if !actions[index].path.isWritable(in: item) { throw .validation(RuntimeMessage.invalidPath) }
            }
            for index in actions.indices where sections[index] == section && missing[index] {
                throw .validation(RuntimeMessage.missingAttribute)
            }
        }
        var writes: [(path: DocumentPath, value: AttributeValue?)] = []
        for index in actions.indices {
            guard let result = results[index] else { continue } // DELETE from a missing set
            writes.append((actions[index].path, result))
        }
        return ItemWriter.apply(writes, to: item)
    }

    /// ADD's result: the value itself for a missing attribute, a sum of numbers, a set union (or,
    /// for legacy updates, a list concatenation).
    static func added(
        _ value: AttributeValue, to current: AttributeValue?, legacy: Bool,
        typeMessage: String
    ) throws(DynamoError) -> AttributeValue {
        guard let current else { return value }
        switch (current, value) {
        case (.n(let a), .n(let b)):
            return .n(try a + b)
        case (.ss, .ss), (.ns, .ns), (.bs, .bs):
            return SetAlgebra.union(current, value)
        case (.l(let a), .l(let b)) where legacy:
            return .l(a + b)
        default:
            throw .validation(typeMessage)
        }
    }
}

extension Operand {
    /// The value of a `SET` operand, computed from the item before the update.
    func updateValue(in item: Item) throws(UpdatePlan.ValueFailure) -> AttributeValue {
        switch self {
        case .path(let path):
            guard let value = path.value(in: item) else { throw .missingAttribute }
            return value
        case .value(let value):
            return value
        case .ifNotExists(let path, let fallback):
            if let value = path.value(in: item) { return value }
            return try fallback.updateValue(in: item)
        case .listAppend(let left, let right):
            guard case .l(let a) = try left.updateValue(in: item) else { throw .incorrectType }
            guard case .l(let b) = try right.updateValue(in: item) else { throw .incorrectType }
            return .l(a + b)
        case .add(let left, let right), .subtract(let left, let right):
            guard case .n(let a) = try left.updateValue(in: item) else { throw .incorrectType }
            guard case .n(let b) = try right.updateValue(in: item) else { throw .incorrectType }
            do throws(DynamoError) {
                if case .add = self { return .n(try a + b) }
                return .n(try a - b)
            } catch {
                throw .number(error)
            }
        case .size:
            throw .incorrectType
        }
    }
}

/// Union and difference of DynamoDB sets, keeping the existing elements' order.
enum SetAlgebra {
    static func union(_ current: AttributeValue, _ added: AttributeValue) -> AttributeValue {
        switch (current, added) {
        case (.ss(let a), .ss(let b)):
            var seen = Set(a.map { Array($0.utf8) })
            return .ss(a + b.filter { seen.insert(Array($0.utf8)).inserted })
        case (.ns(let a), .ns(let b)):
            var seen = Set(a)
            return .ns(a + b.filter { seen.insert($0).inserted })
        case (.bs(let a), .bs(let b)):
            var seen = Set(a)
            return .bs(a + b.filter { seen.insert($0).inserted })
        default:
            return current
        }
    }

    /// `current` without the elements of `removed`; `nil` when nothing is left.
    static func subtract(_ removed: AttributeValue, from current: AttributeValue) -> AttributeValue? {
        switch (current, removed) {
        case (.ss(let a), .ss(let b)):
            let gone = Set(b.map { Array($0.utf8) })
            let rest = a.filter { !gone.contains(Array($0.utf8)) }
            return rest.isEmpty ? nil : .ss(rest)
        case (.ns(let a), .ns(let b)):
            let gone = Set(b)
            let rest = a.filter { !gone.contains($0) }
            return rest.isEmpty ? nil : .ns(rest)
        case (.bs(let a), .bs(let b)):
            let gone = Set(b)
            let rest = a.filter { !gone.contains($0) }
            return rest.isEmpty ? nil : .bs(rest)
        default:
            return current
        }
    }
}
