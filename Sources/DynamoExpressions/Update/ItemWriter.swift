import DynamoAPI

/// Writes computed values into an item at document paths.
enum ItemWriter {
    /// Applies writes (`nil` removes) whose paths were checked writable and do not overlap.
    ///
    /// Writes into a list are applied together per list: replacements in place, removals by the
    /// positions the elements had before, and elements past the end appended in index order.
    static func apply(_ writes: [(path: DocumentPath, value: AttributeValue?)], to item: Item) -> Item {
        var result = item
        var listWrites: [[PathElement]: [(index: Int, value: AttributeValue?)]] = [:]
        var listOrder: [[PathElement]] = []
        for write in writes {
            let elements = write.path.elements
            if elements.count == 1 {
                result[write.path.attribute] = write.value
                continue
            }
            let parent = Array(elements.dropLast())
            switch elements[elements.count - 1] {
            case .attribute(let key):
                modify(&result, at: parent[...]) { container in
                    guard case .m(var map) = container else { return }
                    container = .null
                    map[key] = write.value
                    container = .m(map)
                }
            case .index(let index):
                if listWrites[parent] == nil { listOrder.append(parent) }
                listWrites[parent, default: []].append((index, write.value))
            }
        }
        for parent in listOrder {
            let operations = listWrites[parent]!
            modify(&result, at: parent[...]) { container in
                guard case .l(var list) = container else { return }
                container = .null
                var removed = Set<Int>()
                var appended: [(index: Int, value: AttributeValue)] = []
                for (index, value) in operations {
                    if let value {
                        if index < list.count { list[index] = value } else { appended.append((index, value)) }
                    } else if index < list.count {
                        removed.insert(index)
                    }
                }
                if !removed.isEmpty {
                    list = list.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
                }
                list.append(contentsOf: appended.sorted { $0.index < $1.index }.map(\.value))
                container = .l(list)
            }
        }
        return result
    }

    /// Runs `body` on the value at `path` in `item`, in place, if it exists.
    static func modify(
        _ item: inout Item, at path: ArraySlice<PathElement>,
        _ body: (inout AttributeValue) -> Void
    ) {
        guard case .attribute(let name)? = path.first, item[name] != nil else { return }
        modify(&item[name]!, at: path.dropFirst(), body)
    }

    private static func modify(
        _ value: inout AttributeValue, at path: ArraySlice<PathElement>,
        _ body: (inout AttributeValue) -> Void
    ) {
        guard let step = path.first else {
            body(&value)
            return
        }
        switch (step, value) {
        case (.attribute(let key), .m(var map)) where map[key] != nil:
            value = .null
            modify(&map[key]!, at: path.dropFirst(), body)
            value = .m(map)
        case (.index(let index), .l(var list)) where index < list.count:
            value = .null
            modify(&list[index], at: path.dropFirst(), body)
            value = .l(list)
        default:
            return
        }
    }
}
