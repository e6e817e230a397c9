// The read shapes of `RequestFastDecoder` (GetItem, Query): like the write shapes in
// `JSONByteReader+Shapes.swift`, each reads its members in any order and bails where the
// generated decoder would record a problem or where its rules are not repeated here.

extension JSONByteReader {
    /// GetItem: `TableName` and `Key` required; the projection members, `ConsistentRead` and
    /// `ReturnConsumedCapacity` optional.
    mutating func getItem() throws(FastDecodeBail) -> GetItemInput {
        var tableName: String?
        var key: [String: AttributeValue]?
        var input = GetItemInput(tableName: "", key: [:])
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("TableName") {
                tableName = try reader.tableName()
                return 1 << 0
            } else if name.spells("Key") {
                key = try reader.attributeMap()
                return 1 << 1
            } else if name.spells("ConsistentRead") {
                input.consistentRead = try reader.boolean()
                return 1 << 2
            } else if name.spells("ProjectionExpression") {
                input.projectionExpression = try reader.string()
                return 1 << 3
            } else if name.spells("ExpressionAttributeNames") {
                input.expressionAttributeNames = try reader.stringMap()
                return 1 << 4
            } else if name.spells("ReturnConsumedCapacity") {
                input.returnConsumedCapacity = try reader.knownEnum(ReturnConsumedCapacity.self)
                return 1 << 5
            } else if name.spells("AttributesToGet") {
                input.attributesToGet = try reader.attributeNames()
                return 1 << 6
            }
            throw FastDecodeBail()
        }
        guard let tableName, let key else { throw FastDecodeBail() }
        input.tableName = tableName
        input.key = key
        return input
    }

    /// Query: `TableName` required; the key condition in either form, the page members, the
    /// projection and filter expressions optional. `QueryFilter` and `ConditionalOperator` go the
    /// generic way.
    mutating func query() throws(FastDecodeBail) -> QueryInput {
        var tableName: String?
        var input = QueryInput(tableName: "")
        try topLevelObject { (reader, name) throws(FastDecodeBail) in
            if name.spells("TableName") {
                tableName = try reader.tableName()
                return 1 << 0
            } else if name.spells("KeyConditionExpression") {
                input.keyConditionExpression = try reader.string()
                return 1 << 1
            } else if name.spells("ExpressionAttributeNames") {
                input.expressionAttributeNames = try reader.stringMap()
                return 1 << 2
            } else if name.spells("ExpressionAttributeValues") {
                input.expressionAttributeValues = try reader.attributeMap()
                return 1 << 3
            } else if name.spells("KeyConditions") {
                input.keyConditions = try reader.conditions()
                return 1 << 4
            } else if name.spells("Limit") {
                input.limit = try reader.positiveInteger()
                return 1 << 5
            } else if name.spells("ExclusiveStartKey") {
                input.exclusiveStartKey = try reader.attributeMap()
                return 1 << 6
            } else if name.spells("ScanIndexForward") {
                input.scanIndexForward = try reader.boolean()
                return 1 << 7
            } else if name.spells("ConsistentRead") {
                input.consistentRead = try reader.boolean()
                return 1 << 8
            } else if name.spells("Select") {
                input.select = try reader.knownEnum(Select.self)
                return 1 << 9
            } else if name.spells("ProjectionExpression") {
                input.projectionExpression = try reader.string()
                return 1 << 10
            } else if name.spells("FilterExpression") {
                input.filterExpression = try reader.string()
                return 1 << 11
            } else if name.spells("IndexName") {
                input.indexName = try reader.indexName()
                return 1 << 12
            } else if name.spells("ReturnConsumedCapacity") {
                input.returnConsumedCapacity = try reader.knownEnum(ReturnConsumedCapacity.self)
                return 1 << 13
            } else if name.spells("AttributesToGet") {
                input.attributesToGet = try reader.attributeNames()
                return 1 << 14
            }
            throw FastDecodeBail()
        }
        guard let tableName else { throw FastDecodeBail() }
        input.tableName = tableName
        return input
    }

    /// `KeyConditions`: a map of attribute names (at most 65,535 long) to conditions.
    private mutating func conditions() throws(FastDecodeBail) -> [String: Condition] {
        try expect(UInt8(ascii: "{"))
        var map: [String: Condition] = [:]
        if consume(UInt8(ascii: "}")) { return map }
        repeat {
            let name = try string()
            guard name.utf8.count <= 65535 else { throw FastDecodeBail() }
            try expect(UInt8(ascii: ":"))
            if map.updateValue(try condition(), forKey: name) != nil { throw FastDecodeBail() }
        } while try continues(before: UInt8(ascii: "}"))
        return map
    }

    /// A legacy `Condition`: `ComparisonOperator` (a known one) required, `AttributeValueList`
    /// optional; nothing else.
    private mutating func condition() throws(FastDecodeBail) -> Condition {
        try expect(UInt8(ascii: "{"))
        var comparison: ComparisonOperator?
        var values: [AttributeValue]?
        if !consume(UInt8(ascii: "}")) {
            repeat {
                let name = try rawToken()
                try expect(UInt8(ascii: ":"))
                if name.spells("ComparisonOperator"), comparison == nil {
                    comparison = try knownEnum(ComparisonOperator.self)
                } else if name.spells("AttributeValueList"), values == nil {
                    values = try attributeValues()
                } else {
                    throw FastDecodeBail()
                }
            } while try continues(before: UInt8(ascii: "}"))
        }
        guard let comparison else { throw FastDecodeBail() }
        return Condition(attributeValueList: values, comparisonOperator: comparison)
    }

    /// A list of attribute values (a condition's operands), possibly empty.
    private mutating func attributeValues() throws(FastDecodeBail) -> [AttributeValue] {
        try expect(UInt8(ascii: "["))
        var values: [AttributeValue] = []
        if consume(UInt8(ascii: "]")) { return values }
        repeat {
            values.append(try attributeValue())
        } while try continues(before: UInt8(ascii: "]"))
        return values
    }

    /// `AttributesToGet`: at least one name, each at most 65,535 long.
    private mutating func attributeNames() throws(FastDecodeBail) -> [String] {
        try expect(UInt8(ascii: "["))
        var names: [String] = []
        repeat {
            let name = try string()
            guard name.utf8.count <= 65535 else { throw FastDecodeBail() }
            names.append(name)
        } while try continues(before: UInt8(ascii: "]"))
        return names
    }

    /// `IndexName`: 3...255 characters of `[a-zA-Z0-9_.-]`.
    private mutating func indexName() throws(FastDecodeBail) -> String {
        let name = try string()
        let count = name.utf8.count
        guard count >= 3, count <= 255, ShapePattern.tableName.matches(name) else { throw FastDecodeBail() }
        return name
    }

    /// A Java `Integer` of at least 1 written as plain digits (`Limit`); bails on a sign, a
    /// leading zero, a fraction, an exponent and a value past `Int32.max`.
    private mutating func positiveInteger() throws(FastDecodeBail) -> Int {
        let digits = try digitsToken()
        guard digits[0] != UInt8(ascii: "0"), digits.count <= 10 else { throw FastDecodeBail() }
        var value = 0
        for digit in digits { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        guard value <= Int(Int32.max) else { throw FastDecodeBail() }
        return value
    }
}
