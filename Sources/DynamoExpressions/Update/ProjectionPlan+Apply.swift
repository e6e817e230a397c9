import DynamoAPI

extension ProjectionPlan {
    /// The parts of `item` the projection names: nested paths give nested sub-documents holding
    /// only the named parts; list elements keep their order, without gaps; missing parts are
    /// left out, and so are maps and lists left empty.
    ///
    /// ```swift
    /// // item: {a: {b: 1, c: 2}, l: [x, y, z]}; projection "a.b, l[2], l[0]"
    /// // result: {a: {b: 1}, l: [x, z]}
    /// ```
    public func apply(to item: Item) -> Item {
        let root = Node()
        for path in paths { root.insert(path.elements[...]) }
        var result = Item(minimumCapacity: root.children.count)
        for (element, node) in root.children {
            guard case .attribute(let name) = element, let value = item[name] else { continue }
            if let projected = node.project(value) { result[name] = projected }
        }
        return result
    }

    /// A tree of the requested paths.
    private final class Node {
        var children: [PathElement: Node] = [:]
        var isWhole = false

        func insert(_ elements: ArraySlice<PathElement>) {
            guard let first = elements.first else {
                isWhole = true
                return
            }
            let child = children[first] ?? Node()
            children[first] = child
            child.insert(elements.dropFirst())
        }

        func project(_ value: AttributeValue) -> AttributeValue? {
            if isWhole { return value }
            switch value {
            case .m(let map):
                var kept: [String: AttributeValue] = [:]
                for (element, node) in children {
                    guard case .attribute(let key) = element, let inner = map[key] else { continue }
                    if let projected = node.project(inner) { kept[key] = projected }
                }
                return kept.isEmpty ? nil : .m(kept)
            case .l(let list):
                var kept: [AttributeValue] = []
                let indexes = children.compactMap { element, node -> (Int, Node)? in
                    if case .index(let index) = element { return (index, node) }
                    return nil
                }.sorted { $0.0 < $1.0 }
                for (index, node) in indexes where index < list.count {
                    if let projected = node.project(list[index]) { kept.append(projected) }
                }
                return kept.isEmpty ? nil : .l(kept)
            default:
                return nil
            }
        }
    }
}
