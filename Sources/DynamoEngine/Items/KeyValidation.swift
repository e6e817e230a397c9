import DynamoAPI

/// How keys in requests are checked against a table's key schema, with DynamoDB's messages.
extension TableDefinition {
    /// DynamoDB's limits on key sizes.
    static let maximumPartitionKeyBytes = 2048
    static let maximumSortKeyBytes = 1024

    /// The key attributes a stored table key holds (a page's `LastEvaluatedKey`, a stream
    /// record's `Keys`); a part that does not decode is left out.
    func keyItem(of key: StoredKey) -> Item {
        var item: Item = [:]
        item[partitionKey.name] = KeyEncoding.decode(key.partition, as: partitionKey.type)
        if let sortKey {
            item[sortKey.name] = KeyEncoding.decode(key.sort, as: sortKey.type)
        }
        return item
    }

    /// Validates a `Key` parameter (GetItem, DeleteItem, UpdateItem): exactly the key attributes,
    /// each of its declared type.
    func storedKey(fromKey key: Item) throws(DynamoError) -> StoredKey {
        if let error = keyShapeError(fromKey: key) { throw error }
        return try encodeKey(of: key, emptyPrefix: "One or more parameter values are not valid. ")
    }

    /// Validates the key attributes of a whole item (PutItem).
    func storedKey(forItem item: Item) throws(DynamoError) -> StoredKey {
        if let error = keyShapeError(forItem: item) { throw error }
        return try encodeKey(of: item, emptyPrefix: "One or more parameter values are not valid. ")
    }

    /// What is wrong with the shape of a `Key` parameter (attributes missing or extra, a wrong
    /// type), or `nil`. Shape errors are the ones a transaction reports as its action's
    /// `ValidationError` reason; value errors (empty, too large) fail the whole request.
    func keyShapeError(fromKey key: Item) -> DynamoError? {
        guard key.count == keyAttributes.count else { return Self.schemaMismatch }
        for attribute in keyAttributes {
            guard let value = key[attribute.name], attribute.type.matches(value) else { return Self.schemaMismatch }
        }
        return nil
    }

    /// What is wrong with the key attributes of a whole item (missing, a wrong type), or `nil`.
    func keyShapeError(forItem item: Item) -> DynamoError? {
        for attribute in keyAttributes {
            guard let value = item[attribute.name] else {
                return EngineMessages.missingKeyItem(attributeName: attribute.name)
            }
            guard attribute.type.matches(value) else {
                return EngineMessages.typeMismatchKeyExpectedActual(
                    attributeName: attribute.name, typeRawValue: attribute.type.rawValue, typeDescriptor: value.typeDescriptor)
            }
        }
        return nil
    }

    /// The key of an item that is known to carry valid key attributes (e.g. stored items).
    func storedKey(ofValidItem item: Item) -> StoredKey? {
        try? encodeKey(of: item, emptyPrefix: "")
    }

    /// Only the key attributes of an item.
    func keyOnly(_ item: Item) -> Item {
        var key = Item(minimumCapacity: 2)
        for attribute in keyAttributes { key[attribute.name] = item[attribute.name] }
        return key
    }

    private func encodeKey(of item: Item, emptyPrefix: String) throws(DynamoError) -> StoredKey {
        let partitionValue = item[partitionKey.name]!
        let partition = KeyEncoding.encode(partitionValue)!
        try Self.checkNotEmpty(partitionValue, name: partitionKey.name, prefix: emptyPrefix)
        if partition.count > Self.maximumPartitionKeyBytes {
            throw EngineMessages.hashKeyTooLarge
        }
        var sort: [UInt8] = []
        if let sortKey {
            let sortValue = item[sortKey.name]!
            sort = KeyEncoding.encode(sortValue)!
            try Self.checkNotEmpty(sortValue, name: sortKey.name, prefix: emptyPrefix)
            if sort.count > Self.maximumSortKeyBytes {
                throw EngineMessages.rangeKeysTooLarge
            }
        }
        return StoredKey(
            hash: KeyEncoding.partitionHash(partition, type: partitionKey.type),
            partition: partition, sort: sort)
    }

    private static func checkNotEmpty(_ value: AttributeValue, name: String, prefix: String) throws(DynamoError) {
        switch value {
        case .s(let text) where text.isEmpty:
            throw EngineMessages.emptyStringKeyValue(prefix: prefix, name: name)
        case .b(let bytes) where bytes.isEmpty:
            throw EngineMessages.emptyBinaryKeyValue(prefix: prefix, name: name)
        default:
            return
        }
    }

    static let schemaMismatch = EngineMessages.keyElementMismatch
}
