import DynamoAPI

/// The partition key values a request reads or writes, for DynamoDB's per-partition limits
/// (`CapacityThrottle`): one value per item named by a key or an item, and a Query's partition
/// from its key condition (on the index it reads, when it names a global one), all read from
/// the typed input (``OperationTouches/partitions(of:named:database:)``).
///
/// Values are compared as their canonical JSON (`{"S":"a"}`).
enum PartitionKeys {
    /// One partition touched: the index (nil: the table) and the key value.
    struct Touch: Hashable {
        var index: String?
        var value: String
    }

    /// The canonical text of one key value.
    static func identity(_ value: AttributeValue) -> String {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return writer.string
    }
}
