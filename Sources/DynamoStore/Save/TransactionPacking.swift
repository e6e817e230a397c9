extension ObjectContext {
    /// Packs a save's actions into transactions of at most 100 actions and about 4 MB.
    ///
    /// Objects linked by a relationship the save changes (both sides of it) form a group that
    /// goes into one transaction whenever the group fits one, so no transaction stores one side
    /// of a relationship without the other. Groups keep the actions' dependency order
    /// (inserts, updates, deletes); a group too large for one transaction is split in that
    /// order.
    func transactions(for actions: [WriteAction], maximumActions: Int = 100, maximumBytes: Int = 4_000_000) -> [[WriteAction]] {
        var result: [[WriteAction]] = []
        var current: [WriteAction] = []
        var bytes = 0
        func flush() {
            if !current.isEmpty { result.append(current) }
            current = []
            bytes = 0
        }
        for group in linkedGroups(actions) {
            let groupBytes = group.reduce(0) { $0 + $1.size }
            if group.count <= maximumActions && groupBytes <= maximumBytes {
                if current.count + group.count > maximumActions || bytes + groupBytes > maximumBytes { flush() }
                current += group
                bytes += groupBytes
                continue
            }
            for action in group {
                if !current.isEmpty && (current.count == maximumActions || bytes + action.size > maximumBytes) { flush() }
                current.append(action)
                bytes += action.size
            }
        }
        flush()
        return result
    }

    /// The actions grouped by the links they write between their objects (union-find), groups
    /// ordered by their first action, actions in their original order.
    private func linkedGroups(_ actions: [WriteAction]) -> [[WriteAction]] {
        // No links (new unrelated objects, say): every action is a group of its own, and no
        // object's ID is worked out for it.
        guard actions.contains(where: { !$0.partners.isEmpty }) else { return actions.map { [$0] } }
        var parents = Array(actions.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parents[index] != index {
                parents[index] = parents[parents[index]]
                index = parents[index]
            }
            return index
        }
        var positions: [ObjectID: Int] = [:]
        for (position, action) in actions.enumerated() { positions[action.object.objectID] = position }
        for (position, action) in actions.enumerated() {
            for id in action.partners {
                guard let other = positions[id] else { continue }
                parents[root(other)] = root(position)
            }
        }
        var groups: [Int: [WriteAction]] = [:]
        var order: [Int] = []
        for (position, action) in actions.enumerated() {
            let group = root(position)
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(action)
        }
        return order.compactMap { groups[$0] }
    }
}
