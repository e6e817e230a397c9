import DynamoAPI

extension DocumentPath {
    /// The value at this path in `item`, or `nil` if the path leads nowhere (a missing attribute,
    /// a key a map lacks, an index past a list's end, or a step into a value of the wrong type).
    ///
    /// - Complexity: O(depth).
    public func value(in item: Item) -> AttributeValue? {
        guard case .attribute(let name) = elements[0], var current = item[name] else { return nil }
        for element in elements.dropFirst() {
            switch (element, current) {
            case (.attribute(let key), .m(let map)):
                guard let next = map[key] else { return nil }
                current = next
            case (.index(let index), .l(let list)):
                guard index < list.count else { return nil }
                current = list[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value at the path's parent (`nil` for a top-level attribute or a missing parent).
    func parentValue(in item: Item) -> AttributeValue? {
        guard elements.count > 1 else { return nil }
        return DocumentPath(Array(elements.dropLast())).value(in: item)
    }

    /// Whether an update can write at this path: a top-level attribute always; otherwise the
    /// parent must exist and be a map before a name, a list before an index.
    func isWritable(in item: Item) -> Bool {
        guard elements.count > 1 else { return true }
        switch (parentValue(in: item), elements[elements.count - 1]) {
        case (.m?, .attribute): return true
        case (.l?, .index): return true
        default: return false
        }
    }
}
