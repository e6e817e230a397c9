import DynamoAPI

extension DynamoClient {
    /// DynamoDB's limit on a `BatchWriteItem` request's size.
    static let batchWriteMaximumBytes = 16 * 1024 * 1024

    /// Splits per-table key sets into requests of at most `size` keys in total.
    static func chunks(_ items: [String: KeysAndAttributes], size: Int) -> [[String: KeysAndAttributes]] {
        var result: [[String: KeysAndAttributes]] = []
        var current: [String: KeysAndAttributes] = [:]
        var count = 0
        for table in items.keys.sorted() {
            let request = items[table]!
            var start = 0
            while start < request.keys.count {
                let take = min(size - count, request.keys.count - start)
                var part = request
                part.keys = Array(request.keys[start..<(start + take)])
                current[table] = part
                count += take
                start += take
                if count == size {
                    result.append(current)
                    current = [:]
                    count = 0
                }
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Splits per-table write requests into requests of at most `size` writes and about
    /// `maximumBytes` of JSON (each write's encoded size plus its table name's, with room for
    /// the request's envelope). A single write larger than the limit goes alone, for DynamoDB
    /// to refuse with its own error.
    static func chunks(
        _ items: [String: [WriteRequest]], size: Int, maximumBytes: Int = batchWriteMaximumBytes
    ) -> [[String: [WriteRequest]]] {
        var result: [[String: [WriteRequest]]] = []
        var current: [String: [WriteRequest]] = [:]
        var count = 0
        let envelope = 64
        var bytes = envelope
        for table in items.keys.sorted() {
            for request in items[table]! {
                let encoded = request.jsonBytes.count
                if count > 0, bytes + encoded + (current[table] == nil ? table.utf8.count + 8 : 1) > maximumBytes {
                    result.append(current)
                    current = [:]
                    count = 0
                    bytes = envelope
                }
                bytes += encoded + (current[table] == nil ? table.utf8.count + 8 : 1)
                current[table, default: []].append(request)
                count += 1
                if count == size {
                    result.append(current)
                    current = [:]
                    count = 0
                    bytes = envelope
                }
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
