import DynamoAPI

/// One table of a DynamoDB Local file, as the CreateTable request that recreates it.
package struct DynamoDBLocalTable {
    /// The `dm` row's columns (absent in older formats: `nil`).
    struct Row {
        var name: String
        var creationMilliseconds: Int64
        var readCapacityUnits: Int64
        var writeCapacityUnits: Int64
        var billingMode: Int64?
        var payPerRequestMilliseconds: Int64?
        var deletionProtection: Bool?
        var maxReadRequestUnits: Int64?
        var maxWriteRequestUnits: Int64?
        var streamViewType: String?
    }

    package var name: String
    /// The request that recreates the table (keys, indexes, billing, deletion protection, stream).
    package var input: CreateTableInput
    /// Seconds since 1970.
    package var creationDateTime: Double
    /// When the table turned pay-per-request, seconds since 1970.
    package var billingModeLastUpdate: Double?
    /// The TTL attribute, when TTL is on.
    package var ttlAttribute: String?

    /// How many secondary indexes the table has.
    package var indexCount: Int {
        (input.localSecondaryIndexes?.count ?? 0) + (input.globalSecondaryIndexes?.count ?? 0)
    }

    init(row: Row, info: JSONValue, file: String) throws {
        name = row.name
        creationDateTime = Double(row.creationMilliseconds) / 1000
        let tableInfo = DynamoDBLocalTableInfo(info)
        let payPerRequest = row.billingMode == 1
        if payPerRequest, let since = row.payPerRequestMilliseconds, since > 0 {
            billingModeLastUpdate = Double(since) / 1000
        }
        ttlAttribute = tableInfo.string("TimeToLiveAttributeName")
        var request: [String: JSONValue] = [
            "TableName": .string(row.name),
            "AttributeDefinitions": tableInfo.attributeDefinitions,
            "KeySchema": tableInfo.keySchema(ofIndex: ""),
            "BillingMode": .string(payPerRequest ? "PAY_PER_REQUEST" : "PROVISIONED"),
        ]
        let tableThroughput = JSONValue.object([
            "ReadCapacityUnits": .number(String(row.readCapacityUnits)),
            "WriteCapacityUnits": .number(String(row.writeCapacityUnits)),
        ])
        if !payPerRequest { request["ProvisionedThroughput"] = tableThroughput }
        let locals = tableInfo.localIndexes
        if !locals.isEmpty { request["LocalSecondaryIndexes"] = .array(locals) }
        let globals = tableInfo.globalIndexes(provisioned: payPerRequest ? nil : tableThroughput)
        if !globals.isEmpty { request["GlobalSecondaryIndexes"] = .array(globals) }
        if let viewType = row.streamViewType {
            request["StreamSpecification"] = .object(["StreamEnabled": .bool(true), "StreamViewType": .string(viewType)])
        }
        if let protection = row.deletionProtection ?? tableInfo.bool("DeletionProtectionEnabled") {
            request["DeletionProtectionEnabled"] = .bool(protection)
        }
        var onDemand: [String: JSONValue] = [:]
        if let units = row.maxReadRequestUnits, units > 0 { onDemand["MaxReadRequestUnits"] = .number(String(units)) }
        if let units = row.maxWriteRequestUnits, units > 0 { onDemand["MaxWriteRequestUnits"] = .number(String(units)) }
        if !onDemand.isEmpty { request["OnDemandThroughput"] = .object(onDemand) }
        do {
            input = try CreateTableInput.decodeRequest(.object(request))
        } catch {
            throw DynamoDBLocalImportError(
                path: file, reason: "table \(row.name) has a definition that cannot be read (\(error.message ?? "\(error.code)"))")
        }
    }
}

/// The `TableInfo` JSON of a `dm` row: `Attributes` (attribute definitions), `LSIList`,
/// `GSIDescList` (or, in older files, `GSIList`) in DynamoDB's shapes, `SQLiteIndex` (index name,
/// `""` for the table, → key elements with `DynamoDBAttribute` and `KeyType`) and
/// `TimeToLiveAttributeName`. Member names are matched with either case of their first letter.
struct DynamoDBLocalTableInfo {
    let json: JSONValue

    init(_ json: JSONValue) { self.json = json }

    /// The member `name` of an object, as written or with its first letter lowercased.
    static func member(_ name: String, of json: JSONValue?) -> JSONValue? {
        guard let json else { return nil }
        if let value = json[name], value != .null { return value }
        let lowered = name.prefix(1).lowercased() + name.dropFirst()
        if let value = json[lowered], value != .null { return value }
        return nil
    }

    /// The first member called `name` anywhere in `json`, depth first.
    static func find(_ name: String, in json: JSONValue) -> JSONValue? {
        if let value = member(name, of: json) { return value }
        switch json {
        case .object(let members): return members.keys.sorted().lazy.compactMap { find(name, in: members[$0]!) }.first
        case .array(let elements): return elements.lazy.compactMap { find(name, in: $0) }.first
        default: return nil
        }
    }

    func string(_ name: String) -> String? { Self.member(name, of: json)?.stringValue }

    func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = Self.member(name, of: json) { return value }
        return nil
    }

    var attributeDefinitions: JSONValue {
        .array(
            Self.elements(Self.member("Attributes", of: json)).map { definition in
                .object([
                    "AttributeName": Self.member("AttributeName", of: definition) ?? .null,
                    "AttributeType": Self.member("AttributeType", of: definition) ?? .null,
                ])
            })
    }

    /// The key schema `SQLiteIndex` records for an index (`""`: the table).
    func keySchema(ofIndex name: String) -> JSONValue {
        let elements = Self.elements(Self.member("SQLiteIndex", of: json)?[name])
        return .array(
            elements.map { element in
                .object([
                    "AttributeName": Self.member("AttributeName", of: Self.member("DynamoDBAttribute", of: element)) ?? .null,
                    "KeyType": Self.member("KeyType", of: element) ?? .null,
                ])
            })
    }

    var localIndexes: [JSONValue] {
        Self.elements(Self.member("LSIList", of: json)).map { index in
            .object([
                "IndexName": Self.member("IndexName", of: index) ?? .null,
                "KeySchema": Self.keySchema(Self.member("KeySchema", of: index)),
                "Projection": Self.projection(Self.member("Projection", of: index)),
            ])
        }
    }

    /// The global indexes still live (not DELETING), with their throughput when the table is
    /// provisioned (`provisioned` is the table's, used when an index records none).
    func globalIndexes(provisioned: JSONValue?) -> [JSONValue] {
        let described = Self.elements(Self.member("GSIDescList", of: json))
        let indexes = described.isEmpty ? Self.elements(Self.member("GSIList", of: json)) : described
        return indexes.compactMap { index in
            if Self.member("IndexStatus", of: index)?.stringValue == "DELETING" { return nil }
            var result: [String: JSONValue] = [
                "IndexName": Self.member("IndexName", of: index) ?? .null,
                "KeySchema": Self.keySchema(Self.member("KeySchema", of: index)),
                "Projection": Self.projection(Self.member("Projection", of: index)),
            ]
            if let provisioned {
                let throughput = Self.member("ProvisionedThroughput", of: index)
                let read = Self.member("ReadCapacityUnits", of: throughput)
                let write = Self.member("WriteCapacityUnits", of: throughput)
                result["ProvisionedThroughput"] =
                    read != nil && write != nil
                    ? .object(["ReadCapacityUnits": read!, "WriteCapacityUnits": write!]) : provisioned
            }
            return .object(result)
        }
    }

    private static func elements(_ json: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = json { return elements }
        return []
    }

    private static func keySchema(_ json: JSONValue?) -> JSONValue {
        .array(
            elements(json).map { element in
                .object([
                    "AttributeName": member("AttributeName", of: element) ?? .null,
                    "KeyType": member("KeyType", of: element) ?? .null,
                ])
            })
    }

    private static func projection(_ json: JSONValue?) -> JSONValue {
        var result: [String: JSONValue] = ["ProjectionType": member("ProjectionType", of: json) ?? .string("ALL")]
        if let attributes = member("NonKeyAttributes", of: json) { result["NonKeyAttributes"] = attributes }
        return .object(result)
    }
}
