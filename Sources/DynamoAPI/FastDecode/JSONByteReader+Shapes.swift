// The per-shape readers of `RequestFastDecoder`: each reads one input's members in any order and
// bails where the generated decoder would record a problem or where its rules are not repeated
// here.

extension JSONByteReader {
    /// PutItem: `TableName` and `Item` required; the expression members and the return options
    /// optional. `Expected` and `ConditionalOperator` go the generic way.
    mutating func putItem() throws(FastDecodeBail) -> PutItemInput {
        var tableName: String?
        var item: [String: AttributeValue]?
        var input = PutItemInput(tableName: "", item: [:])
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("TableName") {
                tableName = try reader.tableName()
                return 1 << 0
            } else if name.spells("Item") {
                item = try reader.attributeMap()
                return 1 << 1
            }
            return try reader.conditionalWriteMember(name, into: &input)
        }
        guard let tableName, let item else { throw FastDecodeBail() }
        input.tableName = tableName
        input.item = item
        return input
    }

    /// BatchWriteItem: `RequestItems` of 1...25 tables with plain names, each with 1...25 write
    /// requests of exactly one `PutRequest` (`Item`) or `DeleteRequest` (`Key`).
    mutating func batchWriteItem() throws(FastDecodeBail) -> BatchWriteItemInput {
        var requestItems: [String: [WriteRequest]]?
        var input = BatchWriteItemInput(requestItems: [:])
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("RequestItems") {
                requestItems = try reader.requestItems()
                return 1 << 0
            } else if name.spells("ReturnConsumedCapacity") {
                input.returnConsumedCapacity = try reader.knownEnum(ReturnConsumedCapacity.self)
                return 1 << 1
            } else if name.spells("ReturnItemCollectionMetrics") {
                input.returnItemCollectionMetrics = try reader.knownEnum(ReturnItemCollectionMetrics.self)
                return 1 << 2
            }
            throw FastDecodeBail()
        }
        guard let requestItems else { throw FastDecodeBail() }
        input.requestItems = requestItems
        return input
    }

    private mutating func requestItems() throws(FastDecodeBail) -> [String: [WriteRequest]] {
        try expect(UInt8(ascii: "{"))
        var tables: [String: [WriteRequest]] = [:]
        repeat {
            let table = try tableName()
            try expect(UInt8(ascii: ":"))
            try expect(UInt8(ascii: "["))
            var requests: [WriteRequest] = []
            repeat {
                requests.append(try writeRequest())
            } while try continues(before: UInt8(ascii: "]"))
            guard requests.count <= 25 else { throw FastDecodeBail() }
            if tables.updateValue(requests, forKey: table) != nil { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "}"))
        guard tables.count <= 25 else { throw FastDecodeBail() }
        return tables
    }

    private mutating func writeRequest() throws(FastDecodeBail) -> WriteRequest {
        try expect(UInt8(ascii: "{"))
        let kind = try rawToken()
        try expect(UInt8(ascii: ":"))
        let request: WriteRequest
        if kind.spells("PutRequest") {
            request = WriteRequest(putRequest: PutRequest(item: try onlyMember("Item")))
        } else if kind.spells("DeleteRequest") {
            request = WriteRequest(deleteRequest: DeleteRequest(key: try onlyMember("Key")))
        } else {
            throw FastDecodeBail()
        }
        try expect(UInt8(ascii: "}"))
        return request
    }

    /// An object whose one member is `name`, an attribute map.
    private mutating func onlyMember(_ name: StaticString) throws(FastDecodeBail) -> [String: AttributeValue] {
        try expect(UInt8(ascii: "{"))
        guard try rawToken().spells(name) else { throw FastDecodeBail() }
        try expect(UInt8(ascii: ":"))
        let map = try attributeMap()
        try expect(UInt8(ascii: "}"))
        return map
    }
}
