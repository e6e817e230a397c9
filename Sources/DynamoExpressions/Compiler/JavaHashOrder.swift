/// The iteration order of a Java `HashSet<String>`, which DynamoDB's messages listing several
/// keys (unused placeholders) follow: by bucket of `h ^ (h >>> 16)` of `String.hashCode`, in a
/// table sized for the whole map the keys came from (16 buckets at least, load factor ¾).
/// Keys sharing a bucket are ordered by text (Java keeps insertion order, which JSON decoding
/// does not preserve here).
enum JavaHashOrder {
    static func order(_ keys: [String], tableFor total: Int) -> [String] {
        var capacity = 1
        let wanted = max(total * 4 / 3 + 1, 16)
        while capacity < wanted { capacity *= 2 }
        let mask = UInt32(capacity - 1)
        return keys.map { key -> (UInt32, String) in
            var hash: Int32 = 0
            for unit in key.utf16 { hash = 31 &* hash &+ Int32(unit) }
            let bits = UInt32(bitPattern: hash)
            return ((bits ^ (bits >> 16)) & mask, key)
        }
        .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        .map(\.1)
    }
}
