import DynamoAPI

/// Items in their stored form.
enum ItemJSON {
    /// An item's wire JSON, as stored and as returned.
    static func encode(_ item: Item) -> [UInt8] {
        encode(item, reservingCapacity: 128)
    }

    /// ``encode(_:)`` for a caller that knows the item's ``ItemSize``: the JSON is about that
    /// long plus a dozen bytes of quotes and type keys per attribute, so its buffer is made that
    /// large at once rather than grown (and copied) as it fills.
    static func encode(_ item: Item, size: Int) -> [UInt8] {
        encode(item, reservingCapacity: size + 16 * item.count + 2)
    }

    private static func encode(_ item: Item, reservingCapacity capacity: Int) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: capacity)
        AttributeValue.encode(item: item, to: &writer)
        return writer.bytes
    }
}
