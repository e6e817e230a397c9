import DynamoAPI
import DynamoEngine

/// Writes a `TableDescription` object as DynamoDB's DescribeTable, CreateTable, UpdateTable and
/// DeleteTable return it.
enum TableDescriptionWriter {
    static func write(_ table: TableSnapshot, to writer: inout JSONWriter) {
        let definition = table.definition
        let arn = ResourceNames.tableARN(region: table.region, table: definition.name)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("AttributeDefinitions", first: true)
        // DynamoDB lists attribute definitions and projected attributes sorted by name.
        writeArray(definition.attributeDefinitions.sorted { Self.byName($0.name, $1.name) }, to: &writer) { attribute, writer in
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("AttributeName", first: true)
            writer.write(string: attribute.name)
            writer.writeKey("AttributeType", first: false)
            writer.write(string: attribute.type.rawValue)
            writer.writeRaw(UInt8(ascii: "}"))
        }
        writer.writeKey("TableName", first: false)
        writer.write(string: definition.name)
        writer.writeKey("KeySchema", first: false)
        writeKeySchema(partition: [definition.partitionKey], sort: definition.sortKey.map { [$0] } ?? [], to: &writer)
        writer.writeKey("TableStatus", first: false)
        writer.write(string: table.status)
        writer.writeKey("CreationDateTime", first: false)
        writer.write(definition.creationDateTime)
        writeThroughputSizeAndIdentity(table, arn: arn, to: &writer)
        writeBillingModeSummary(definition, to: &writer)
        if !definition.localIndexes.isEmpty {
            writer.writeKey("LocalSecondaryIndexes", first: false)
            writeArray(definition.localIndexes, to: &writer) { index, writer in
                writeIndex(index, tableARN: arn, global: false, statistics: table.indexStatistics[index.name],
                           to: &writer)
            }
        }
        if !definition.globalIndexes.isEmpty {
            writer.writeKey("GlobalSecondaryIndexes", first: false)
            writeArray(definition.globalIndexes, to: &writer) { index, writer in
                var index = index
                index.status = table.indexStatus[index.name] ?? index.status
                writeIndex(index, tableARN: arn, global: true, backfilling: table.backfilling,
                           statistics: table.indexStatistics[index.name],
                           to: &writer)
            }
        }
        if let viewType = definition.streamViewType {
            writer.writeKey("StreamSpecification", first: false)
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("StreamEnabled", first: true)
            writer.write(true)
            writer.writeKey("StreamViewType", first: false)
            writer.write(string: viewType)
            writer.writeRaw(UInt8(ascii: "}"))
        }
        // A disabled stream's ARN stays the table's latest until another is enabled.
        if let label = definition.streamLabel {
            writer.writeKey("LatestStreamLabel", first: false)
            writer.write(string: label)
            writer.writeKey("LatestStreamArn", first: false)
            writer.write(string: "\(arn)/stream/\(label)")
        }
        if definition.sseEnabled {
            writer.writeKey("SSEDescription", first: false)
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("Status", first: true)
            writer.write(string: "ENABLED")
            writer.writeKey("SSEType", first: false)
            writer.write(string: definition.sseType ?? "KMS")
            writer.writeKey("KMSMasterKeyArn", first: false)
            writer.write(string: kmsKeyARN(definition.kmsMasterKeyID, region: table.region))
            writer.writeRaw(UInt8(ascii: "}"))
        }
        if let tableClass = definition.tableClass {
            writer.writeKey("TableClassSummary", first: false)
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("TableClass", first: true)
            writer.write(string: tableClass)
            writer.writeRaw(UInt8(ascii: "}"))
        }
        if let restore = definition.restoreSummary {
            writer.writeKey("RestoreSummary", first: false)
            RestoreSummary(sourceBackupArn: restore.sourceBackupARN, sourceTableArn: restore.sourceTableARN,
                           restoreDateTime: Timestamp(secondsSince1970: restore.restoreDateTime),
                           restoreInProgress: table.status == "CREATING").encode(to: &writer)
        }
        writer.writeKey("DeletionProtectionEnabled", first: false)
        writer.write(definition.deletionProtectionEnabled)
        if definition.billingMode == "PAY_PER_REQUEST" || definition.onDemandMaxRead != nil
            || definition.onDemandMaxWrite != nil {
            writer.writeKey("OnDemandThroughput", first: false)
            writer.writeRaw(UInt8(ascii: "{"))
            writer.writeKey("MaxReadRequestUnits", first: true)
            writer.write(definition.onDemandMaxRead ?? -1)
            writer.writeKey("MaxWriteRequestUnits", first: false)
            writer.write(definition.onDemandMaxWrite ?? -1)
            writer.writeRaw(UInt8(ascii: "}"))
        }
        writeSettings(table, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// The reduced description DeleteTable returns: no key schema, attribute definitions,
    /// creation time or indexes, status `DELETING` (captures of the service, 2016 and 2022).
    static func writeDeleted(_ table: TableSnapshot, to writer: inout JSONWriter) {
        let definition = table.definition
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("TableName", first: true)
        writer.write(string: definition.name)
        writer.writeKey("TableStatus", first: false)
        writer.write(string: "DELETING")
        writeThroughputSizeAndIdentity(table, arn: ResourceNames.tableARN(region: table.region, table: definition.name),
                                       to: &writer)
        writeBillingModeSummary(definition, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// `,"ProvisionedThroughput":…,"TableSizeBytes":…,"ItemCount":…,"TableArn":…,"TableId":…`.
    private static func writeThroughputSizeAndIdentity(_ table: TableSnapshot, arn: String, to writer: inout JSONWriter) {
        writer.writeKey("ProvisionedThroughput", first: false)
        writeThroughput(table.definition.throughput, to: &writer)
        writer.writeKey("TableSizeBytes", first: false)
        writer.write(table.sizeBytes)
        writer.writeKey("ItemCount", first: false)
        writer.write(table.itemCount)
        writer.writeKey("TableArn", first: false)
        writer.write(string: arn)
        writer.writeKey("TableId", first: false)
        writer.write(string: table.definition.tableID)
    }

    /// `,"BillingModeSummary":{...}`.
    private static func writeBillingModeSummary(_ definition: TableDefinition, to writer: inout JSONWriter) {
        writer.writeKey("BillingModeSummary", first: false)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("BillingMode", first: true)
        writer.write(string: definition.billingMode)
        if let lastUpdate = definition.billingModeLastUpdate, definition.billingMode == "PAY_PER_REQUEST" {
            writer.writeKey("LastUpdateToPayPerRequestDateTime", first: false)
            writer.write(lastUpdate)
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// A KMS key given by id, alias or ARN, as the ARN DynamoDB reports.
    private static func kmsKeyARN(_ key: String?, region: String) -> String {
        guard let key else {
            return "arn:aws:kms:\(region):\(ResourceNames.accountID):key/00000000-0000-0000-0000-000000000000"
        }
        if key.hasPrefix("arn:") { return key }
        return "arn:aws:kms:\(region):\(ResourceNames.accountID):key/\(key)"
    }

    /// Name order as DynamoDB sorts names: by UTF-8 bytes.
    static func byName(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private static func writeIndex(_ index: IndexDefinition, tableARN: String, global: Bool, backfilling: Bool = false,
                                   statistics: (itemCount: Int64, sizeBytes: Int64)?, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("IndexName", first: true)
        writer.write(string: index.name)
        writer.writeKey("KeySchema", first: false)
        writeKeySchema(partition: index.partitionAttributes, sort: index.sortAttributes, to: &writer)
        writer.writeKey("Projection", first: false)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("ProjectionType", first: true)
        writer.write(string: index.projectionType)
        if let nonKey = index.nonKeyAttributes {
            writer.writeKey("NonKeyAttributes", first: false)
            writeArray(nonKey.sorted(by: byName), to: &writer) { name, writer in writer.write(string: name) }
        }
        writer.writeRaw(UInt8(ascii: "}"))
        if global {
            writer.writeKey("IndexStatus", first: false)
            writer.write(string: index.status)
            if index.status == "CREATING" {
                writer.writeKey("Backfilling", first: false)
                writer.write(backfilling)
            }
            writer.writeKey("ProvisionedThroughput", first: false)
            writeThroughput(index.throughput ?? ThroughputSettings(readCapacityUnits: 0, writeCapacityUnits: 0),
                            to: &writer)
        }
        writer.writeKey("IndexSizeBytes", first: false)
        writer.write(statistics?.sizeBytes ?? 0)
        writer.writeKey("ItemCount", first: false)
        writer.write(statistics?.itemCount ?? 0)
        writer.writeKey("IndexArn", first: false)
        writer.write(string: "\(tableARN)/index/\(index.name)")
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// `[{"AttributeName": …, "KeyType": "HASH"}, …, {… "RANGE"}, …]`: every partition-key
    /// attribute, then every sort-key attribute (more than one of each for multi-attribute keys).
    private static func writeKeySchema(partition: [KeyAttribute], sort: [KeyAttribute], to writer: inout JSONWriter) {
        let elements = partition.map { ($0.name, "HASH") } + sort.map { ($0.name, "RANGE") }
        writeArray(elements, to: &writer) { element, writer in writeKeyElement(element.0, type: element.1, to: &writer) }
    }

    private static func writeKeyElement(_ name: String, type: String, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("AttributeName", first: true)
        writer.write(string: name)
        writer.writeKey("KeyType", first: false)
        writer.write(string: type)
        writer.writeRaw(UInt8(ascii: "}"))
    }

    private static func writeThroughput(_ throughput: ThroughputSettings, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        var first = true
        if let increase = throughput.lastIncreaseDateTime {
            writer.writeKey("LastIncreaseDateTime", first: first)
            writer.write(increase)
            first = false
        }
        if let decrease = throughput.lastDecreaseDateTime {
            writer.writeKey("LastDecreaseDateTime", first: first)
            writer.write(decrease)
            first = false
        }
        writer.writeKey("NumberOfDecreasesToday", first: first)
        writer.write(throughput.numberOfDecreasesToday)
        writer.writeKey("ReadCapacityUnits", first: false)
        writer.write(throughput.readCapacityUnits)
        writer.writeKey("WriteCapacityUnits", first: false)
        writer.write(throughput.writeCapacityUnits)
        writer.writeRaw(UInt8(ascii: "}"))
    }

    static func writeArray<Element>(_ elements: [Element], to writer: inout JSONWriter,
                                    _ body: (Element, inout JSONWriter) -> Void) {
        writer.writeRaw(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { writer.writeRaw(UInt8(ascii: ",")) }
            body(element, &writer)
        }
        writer.writeRaw(UInt8(ascii: "]"))
    }
}
