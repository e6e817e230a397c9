import DynamoAPI

/// CreateTable's semantic checks, in the order DynamoDB applies them after the request's
/// constraint validation, with DynamoDB's messages.
enum TableValidation {

    /// Key schema elements as (name, key type) pairs.
    typealias SchemaElement = (name: String, keyType: KeyType)

    /// Checks billing mode against throughput.
    static func checkBilling(mode: BillingMode?, throughput: (read: Int, write: Int)?) throws(DynamoError) {
        if mode == .payPerRequest {
            if throughput != nil {
                throw EngineMessages.neitherReadCapacityUnitsNorWriteCapacityUnitsSpecified
            }
            return
        }
        guard let throughput, throughput.read > 0, throughput.write > 0 else {
            throw EngineMessages.readCapacityUnitsWriteCapacityUnitsBothSpecifiedWhen
        }
        try checkThroughputBounds(read: throughput.read, write: throughput.write)
    }

    static func checkThroughputBounds(read: Int, write: Int) throws(DynamoError) {
        if read > 1_000_000_000_000 { throw EngineMessages.givenValueReadCapacityUnitsOutBounds(read: read) }
        if write > 1_000_000_000_000 { throw EngineMessages.givenValueWriteCapacityUnitsOutBounds(write: write) }
    }

    /// A global index's throughput as its table's billing mode requires: none for
    /// PAY_PER_REQUEST, given and in bounds for PROVISIONED.
    static func indexThroughput(
        _ given: ProvisionedThroughput?, index: String,
        billingMode: BillingMode
    ) throws(DynamoError) -> ThroughputSettings? {
        if billingMode == .payPerRequest {
            if given != nil {
                throw EngineMessages.provisionedThroughputShouldNotSpecifiedIndex(index: index)
            }
            return nil
        }
        guard let given else {
            throw EngineMessages.provisionedThroughputNotSpecifiedIndex(index: index)
        }
        try checkThroughputBounds(read: given.readCapacityUnits, write: given.writeCapacityUnits)
        return ThroughputSettings(readCapacityUnits: given.readCapacityUnits, writeCapacityUnits: given.writeCapacityUnits)
    }

    /// Checks a table's or an index's key schema against the attribute definitions and returns
    /// its (partition, sort) key attributes.
    static func resolveKeySchema(
        _ schema: [SchemaElement], definitions: [KeyAttribute]
    ) throws(DynamoError) -> (KeyAttribute, KeyAttribute?) {
        let definedNames = definitions.map(\.name)
        let keyNames = schema.map(\.name)
        if keyNames.count > definedNames.count {
            throw EngineMessages.invalidKeySchemaSomeIndexKey
        }
        if keyNames.contains(where: { !definedNames.contains($0) }) {
            throw EngineMessages.someIndexKeyAttributesNot(keyNames: keyNames, definedNames: definedNames)
        }
        if keyNames.count == 2, keyNames[0] == keyNames[1] {
            throw EngineMessages.bothHashKeyRangeKey
        }
        if schema[0].keyType != .hash {
            throw EngineMessages.invalidKeySchemaFirstKeySchemaElementNot
        }
        if schema.count == 2, schema[1].keyType != .range {
            throw EngineMessages.invalidKeySchemaSecondKeySchemaElementNot
        }
        func attribute(_ name: String) -> KeyAttribute { definitions.first { $0.name == name }! }
        return (attribute(keyNames[0]), schema.count == 2 ? attribute(keyNames[1]) : nil)
    }

    /// DynamoDB's limit on each part of a multi-attribute global index key.
    static let maximumKeyAttributesPerPart = 4

    /// Checks a global index's key schema, which may list up to four HASH and four RANGE
    /// attributes (multi-attribute keys), and returns its partition and sort attributes in order.
    /// Schemas of one HASH and at most one RANGE element get the table rules and messages.
    static func resolveGlobalIndexKeySchema(
        _ schema: [SchemaElement], definitions: [KeyAttribute]
    ) throws(DynamoError) -> (partition: [KeyAttribute], sort: [KeyAttribute]) {
        let hashCount = schema.filter { $0.keyType == .hash }.count
        if schema.count <= 2, hashCount <= 1 {
            let (hash, range) = try resolveKeySchema(schema, definitions: definitions)
            return ([hash], range.map { [$0] } ?? [])
        }
        let definedNames = definitions.map(\.name)
        let keyNames = schema.map(\.name)
        if keyNames.contains(where: { !definedNames.contains($0) }) {
            throw EngineMessages.someIndexKeyAttributesNot(keyNames: keyNames, definedNames: definedNames)
        }
        if Set(keyNames).count != keyNames.count {
            throw EngineMessages.keySchemaContainsMultipleKeyAttributes
        }
        if schema[0].keyType != .hash {
            throw EngineMessages.invalidKeySchemaFirstKeySchemaElementNot
        }
        guard let firstRange = schema.firstIndex(where: { $0.keyType == .range }) ?? Optional(schema.count),
            !schema[firstRange...].contains(where: { $0.keyType == .hash })
        else {
            throw EngineMessages.allHashKeyAttributesPrecede
        }
        if hashCount > maximumKeyAttributesPerPart {
            throw EngineMessages.tooManyHashKeys
        }
        if schema.count - hashCount > maximumKeyAttributesPerPart {
            throw EngineMessages.tooManyRangeKeys
        }
        func attribute(_ name: String) -> KeyAttribute { definitions.first { $0.name == name }! }
        return (keyNames[..<firstRange].map(attribute), keyNames[firstRange...].map(attribute))
    }

    /// A global index definition from its resolved key attributes.
    static func globalIndex(
        name: String, partition: [KeyAttribute], sort: [KeyAttribute], projection: ProjectionType,
        nonKeyAttributes: [String]?, throughput: ThroughputSettings?,
        status: IndexStatus, storageNumber: Int
    ) -> IndexDefinition {
        var index = IndexDefinition(
            name: name, partitionKey: partition[0], sortKey: sort.first,
            projectionType: projection, nonKeyAttributes: nonKeyAttributes,
            throughput: throughput, status: status, storageNumber: storageNumber,
            isGlobal: true)
        if partition.count > 1 { index.extraPartitionKeys = Array(partition.dropFirst()) }
        if sort.count > 1 { index.extraSortKeys = Array(sort.dropFirst()) }
        return index
    }

    /// Checks a projection's consistency.
    static func checkProjection(type: ProjectionType?, nonKeyAttributes: [String]?) throws(DynamoError) -> ProjectionType {
        guard let type else { throw EngineMessages.unknownProjectionTypeNull }
        if nonKeyAttributes != nil, type != .include {
            throw EngineMessages.projectionTypeButNonKeyAttributesSpecified(type: type)
        }
        if type == .include, nonKeyAttributes?.isEmpty ?? true {
            throw EngineMessages.projectionTypeIncludeButNonKeyAttributesNot
        }
        var named = Set<String>()
        for name in nonKeyAttributes ?? [] where !named.insert(name).inserted {
            throw EngineMessages.duplicateNonKeyAttribute(name: name)
        }
        return type
    }

    /// DynamoDB's range for on-demand maxima: at least 1, or -1 (no maximum) where `clears` (an
    /// UpdateTable may remove a maximum; a CreateTable or restore may not ask for -1).
    static func checkOnDemand(_ onDemand: OnDemandThroughput, clears: Bool, restore: Bool = false) throws(DynamoError) {
        for (member, value) in [("MaxReadRequestUnits", onDemand.maxReadRequestUnits), ("MaxWriteRequestUnits", onDemand.maxWriteRequestUnits)] {
            guard let value, value < 1, !(clears && value == -1) else { continue }
            throw restore
                ? EngineMessages.restoreOnDemandOutsideRange(member: member)
                : EngineMessages.onDemandOutsideRange(member: member)
        }
    }

    /// Refuses a table class outside the model's values (CreateTable and UpdateTable), in the
    /// service's words rather than as an enum constraint violation.
    static func checkTableClass(_ tableClass: TableClass?) throws(DynamoError) {
        guard let tableClass, !tableClass.isKnown else { return }
        throw EngineMessages.invalidTableClass
    }

    /// DynamoDB's rules for an `SSESpecification` (CreateTable and UpdateTable): nothing beside
    /// `Enabled: false`, and a KMS key only with `SSEType` KMS (AES256 is no longer offered).
    static func checkEncryption(_ sse: SSESpecification) throws(DynamoError) {
        if sse.enabled == false {
            if sse.sseType != nil { throw EngineMessages.sseTypeWhenDisabled }
            if sse.kmsMasterKeyId != nil { throw EngineMessages.kmsKeyWhenDisabled }
        }
        if sse.sseType == .aes256 { throw EngineMessages.sseTypeAES256 }
        if sse.kmsMasterKeyId != nil, sse.sseType != .kms { throw EngineMessages.kmsKeyNeedsKMSType }
    }

    /// DynamoDB's rule for table and index names: 3 to 255 of `[a-zA-Z0-9_.-]`.
    static func isValidName(_ name: String) -> Bool {
        (3...255).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x5F || byte == 0x2E || byte == 0x2D
            }
    }
}
