import DynamoAPI

/// Items in their stored form.
enum ItemJSON {
    /// An item's wire JSON, as stored and as returned.
    static func encode(_ item: Item) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        AttributeValue.encode(item: item, to: &writer)
        return writer.bytes
    }
}
