/// One of a request's placeholder maps (`ExpressionAttributeNames` or
/// `ExpressionAttributeValues`) and which of its entries the expressions used, for DynamoDB's
/// "unused in expressions" check.
///
/// A map of up to 64 entries (nearly every request's) keeps one bit per entry, by the entry's
/// position in the map; a larger one a set of the keys used. A set of strings grown by
/// inserts cost several allocations and rehashes on every request with expressions.
struct PlaceholderMap<Value> {
    let entries: [String: Value]
    private var usedBits: UInt64 = 0
    private var usedKeys: Set<String> = []

    /// Maps of more entries than this track their used keys in a set.
    static var bitLimit: Int { UInt64.bitWidth }

    init(_ entries: [String: Value]?) {
        self.entries = entries ?? [:]
    }

    /// The value of `key`, marked used; `nil` when the map has no such key.
    mutating func use(_ key: String) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        if entries.count <= Self.bitLimit {
            usedBits |= 1 << entries.distance(from: entries.startIndex, to: index)
        } else {
            usedKeys.insert(key)
        }
        return entries[index].value
    }

    /// Whether the map has `key` (not marking it used).
    func contains(_ key: String) -> Bool {
        entries.index(forKey: key) != nil
    }

    /// The keys no expression used, in the map's order.
    var unusedKeys: [String] {
        if entries.count > Self.bitLimit {
            return entries.keys.filter { !usedKeys.contains($0) }
        }
        var unused: [String] = []
        for (position, key) in entries.keys.enumerated() where usedBits & (1 << position) == 0 {
            unused.append(key)
        }
        return unused
    }
}
