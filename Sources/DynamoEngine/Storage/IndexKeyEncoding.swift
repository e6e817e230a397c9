import DynamoAPI

/// How an index key is stored: a single-attribute key part as `KeyEncoding` bytes, a
/// multi-attribute one (DynamoDB's multi-attribute GSI keys) as a tuple of them.
///
/// A tuple component escapes each 0x00 byte as 0x00 0xFF and ends with 0x00 0x00, so tuples
/// compare with `memcmp` exactly as their components compare left to right (a shorter component
/// sorts before a longer one it prefixes), and a prefix of components is a byte prefix.
enum TupleEncoding {
    /// One component: escaped, and terminated unless `open` (an open component is the prefix a
    /// `begins_with` looks for).
    static func component(_ bytes: [UInt8], open: Bool = false) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            encoded.append(byte)
            if byte == 0 { encoded.append(0xFF) }
        }
        if !open { encoded += [0, 0] }
        return encoded
    }

    /// The components of a tuple, unescaped.
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0, position + 1 < bytes.count {
                if bytes[position + 1] == 0 {
                    parts.append(current)
                    current = []
                } else {
                    current.append(0)
                }
                position += 2
            } else {
                current.append(byte)
                position += 1
            }
        }
        return parts
    }
}

extension IndexDefinition {
    /// The stored bytes of one key part (partition or sort) from its attribute values' bytes.
    static func keyPart(_ components: [[UInt8]], multi: Bool) -> [UInt8] {
        multi ? components.flatMap { TupleEncoding.component($0) } : (components.first ?? [])
    }

    /// The type error of an item's index key attribute, if one has the wrong type (DynamoDB's
    /// message). A transaction reports it as its action's `ValidationError` reason.
    func keyTypeError(of item: Item) -> DynamoError? {
        for attribute in keyAttributes {
            guard let value = item[attribute.name] else { return nil }
            if !attribute.type.matches(value) || KeyEncoding.encode(value) == nil {
                return typeMismatch(attribute, value)
            }
        }
        return nil
    }

    private func typeMismatch(_ attribute: KeyAttribute, _ value: AttributeValue) -> DynamoError {
        EngineMessages.typeMismatchIndexKeyExpected(
            attributeName: attribute.name, typeRawValue: attribute.type.rawValue, typeDescriptor: value.typeDescriptor, name: name)
    }

    /// The stored index key of an item, or `nil` when it lacks an index key attribute (sparse).
    ///
    /// - Throws: DynamoDB's error when an index key attribute has the wrong type or is empty,
    ///   and then, with every attribute present and valid, when the key is too large.
    ///
    /// Runs on every write of a table with indexes, once per index: it walks the key attributes
    /// by position (``keyAttribute(at:)``) and appends each one's bytes to its key part, so it
    /// builds no list of attributes or of their encodings.
    func storedKey(of item: Item) throws(DynamoError) -> StoredKey? {
        let partitionCount = partitionAttributeCount
        let multiPartition = partitionCount > 1
        let multiSort = sortAttributeCount > 1
        var partition: [UInt8] = []
        var sort: [UInt8] = []
        // The first partition attribute over the size limit, and the sort attributes' total:
        // reported only once every attribute is known to be present and of the right type.
        var oversizedPartition: (name: String, size: Int)?
        var sortBytes = 0
        for position in 0..<keyAttributeCount {
            let attribute = keyAttribute(at: position)
            guard let value = item[attribute.name] else { return nil }
            guard attribute.type.matches(value), let bytes = KeyEncoding.encode(value) else {
                throw typeMismatch(attribute, value)
            }
            if bytes.isEmpty, attribute.type != .number {
                let kind = attribute.type == .string ? "string" : "binary"
                throw EngineMessages.emptyIndexKeyValue(kind: kind, name: name, attributeName: attribute.name)
            }
            let size = Self.keySize(value)
            if position < partitionCount {
                if oversizedPartition == nil, size > TableDefinition.maximumPartitionKeyBytes {
                    oversizedPartition = (attribute.name, size)
                }
                if multiPartition { partition += TupleEncoding.component(bytes) } else { partition = bytes }
            } else {
                sortBytes += size
                if multiSort { sort += TupleEncoding.component(bytes) } else { sort = bytes }
            }
        }
        if let oversizedPartition {
            throw EngineMessages.sizeLimitExceededIndexKey(
                attributeName: oversizedPartition.name, size: oversizedPartition.size, name: name)
        }
        if sortBytes > TableDefinition.maximumSortKeyBytes {
            throw EngineMessages.indexRangeKeysTooLarge
        }
        return StoredKey(
            hash: KeyEncoding.partitionHash(partition, type: multiPartition ? .binary : partitionKey.type),
            partition: partition, sort: sort)
    }

    /// How many key attributes the index has (``keyAttributes``' count, without building it).
    var keyAttributeCount: Int { partitionAttributeCount + sortAttributeCount }

    /// The key attribute at `position` in ``keyAttributes`` (partition attributes first, each
    /// part in key-schema order), without building that list.
    func keyAttribute(at position: Int) -> KeyAttribute {
        let partitionCount = partitionAttributeCount
        if position < partitionCount {
            return position == 0 ? partitionKey : extraPartitionKeys![position - 1]
        }
        let sortPosition = position - partitionCount
        if let sortKey {
            return sortPosition == 0 ? sortKey : extraSortKeys![sortPosition - 1]
        }
        return extraSortKeys![sortPosition]
    }

    /// A key value's size as DynamoDB counts it (UTF-8 bytes of a string, bytes of a binary,
    /// the stored size of a number).
    private static func keySize(_ value: AttributeValue) -> Int {
        switch value {
        case .s(let text): text.utf8.count
        case .b(let bytes): bytes.count
        case .n(let number): number.storageSize
        default: 0
        }
    }

    /// The stored key from the bytes of each partition and sort attribute.
    func storedKey(partition: [[UInt8]], sort: [[UInt8]]) -> StoredKey {
        let multiPartition = partitionAttributeCount > 1
        let partitionBytes = Self.keyPart(partition, multi: multiPartition)
        return StoredKey(
            hash: KeyEncoding.partitionHash(partitionBytes, type: multiPartition ? .binary : partitionKey.type),
            partition: partitionBytes, sort: Self.keyPart(sort, multi: sortAttributeCount > 1))
    }

    /// The index key attributes of a stored key (for `LastEvaluatedKey`).
    func keyItem(of key: StoredKey) -> Item {
        var item: Item = [:]
        func decode(_ bytes: [UInt8], _ attributes: [KeyAttribute]) {
            let parts = attributes.count > 1 ? TupleEncoding.split(bytes) : [bytes]
            for (attribute, part) in zip(attributes, parts) {
                item[attribute.name] = KeyEncoding.decode(part, as: attribute.type)
            }
        }
        decode(key.partition, partitionAttributes)
        decode(key.sort, sortAttributes)
        return item
    }
}

extension TableDefinition {
    /// The first index key type error of an item, with its indexes checked in name order (as
    /// DynamoDB checks them), or `nil`.
    func indexKeyTypeError(forItem item: Item) -> DynamoError? {
        for index in indexesByName {
            if let error = index.keyTypeError(of: item) { return error }
        }
        return nil
    }

    /// DynamoDB's error for an update whose result gives an index key attribute an empty string
    /// or binary value (a put of such an item names the index instead), or `nil`.
    func updatedIndexKeyError(forItem item: Item) -> DynamoError? {
        for index in indexesByName {
            for attribute in index.keyAttributes {
                guard let value = item[attribute.name] else { break }
                guard attribute.type != .number, attribute.type.matches(value),
                    KeyEncoding.encode(value)?.isEmpty == true
                else { continue }
                let kind = attribute.type == .string ? "string" : "binary"
                return EngineMessages.updateSetsEmptyIndexKey(kind: kind)
            }
        }
        return nil
    }
}
