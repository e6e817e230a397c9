import DynamoAPI

extension TableSnapshot {
    /// The table as DescribeTable, CreateTable, UpdateTable and the restores return it.
    package var tableDescription: TableDescription {
        let definition = definition
        let arn = ResourceNames.tableARN(region: region, table: definition.name)
        var description = identity(arn: arn)
        // DynamoDB lists attribute definitions and projected attributes sorted by name.
        description.attributeDefinitions = definition.attributeDefinitions.sorted { Self.byName($0.name, $1.name) }
            .map { AttributeDefinition(attributeName: $0.name, attributeType: ScalarAttributeType(rawValue: $0.type.rawValue)) }
        description.keySchema = Self.keySchema(
            partition: [definition.partitionKey],
            sort: definition.sortKey.map { [$0] } ?? [])
        description.tableStatus = status
        description.creationDateTime = Timestamp(secondsSince1970: definition.creationDateTime)
        if !definition.localIndexes.isEmpty {
            description.localSecondaryIndexes = definition.localIndexes.map { index in
                let statistics = indexStatistics[index.name]
                return LocalSecondaryIndexDescription(
                    indexName: index.name, keySchema: Self.keySchema(partition: index.partitionAttributes, sort: index.sortAttributes),
                    projection: Self.projection(index), indexSizeBytes: Int(statistics?.sizeBytes ?? 0),
                    itemCount: Int(statistics?.itemCount ?? 0), indexArn: "\(arn)/index/\(index.name)")
            }
        }
        if !definition.globalIndexes.isEmpty {
            description.globalSecondaryIndexes = definition.globalIndexes.map { globalIndex($0, tableARN: arn) }
        }
        let vectorIndexes = definition.vectorIndexes + deletedVectorIndexes
        if !vectorIndexes.isEmpty {
            description.vectorIndexes = vectorIndexes.map { vectorIndex($0, tableARN: arn) }
        }
        if let viewType = definition.streamViewType {
            description.streamSpecification = StreamSpecification(
                streamEnabled: true,
                streamViewType: viewType)
        }
        // A disabled stream's ARN stays the table's latest until another is enabled.
        if let label = definition.streamLabel {
            description.latestStreamLabel = label
            description.latestStreamArn = "\(arn)/stream/\(label)"
        }
        if definition.sseEnabled {
            description.sseDescription = SSEDescription(
                status: .enabled, sseType: definition.sseType ?? .kms,
                kmsMasterKeyArn: Self.kmsKeyARN(definition.kmsMasterKeyID, region: region))
        }
        if let tableClass = definition.tableClass {
            description.tableClassSummary = TableClassSummary(tableClass: tableClass)
        }
        if let restore = definition.restoreSummary {
            description.restoreSummary = RestoreSummary(
                sourceBackupArn: restore.sourceBackupARN, sourceTableArn: restore.sourceTableARN,
                restoreDateTime: Timestamp(secondsSince1970: restore.restoreDateTime),
                restoreInProgress: status == .creating)
        }
        description.deletionProtectionEnabled = definition.deletionProtectionEnabled
        description.disassociationProtectionEnabled = definition.disassociationProtectionReport
        // Only where maxima were set (DynamoDB's recorded descriptions, 2025-2026).
        if definition.onDemandMaxRead != nil || definition.onDemandMaxWrite != nil {
            description.onDemandThroughput = OnDemandThroughput(
                maxReadRequestUnits: definition.onDemandMaxRead ?? -1,
                maxWriteRequestUnits: definition.onDemandMaxWrite ?? -1)
        }
        description.warmThroughput = definition.warmThroughput(now: describedAt)
        if let replicas = replicaDescriptions {
            description.replicas = replicas
            description.globalTableVersion = GlobalTableVersion.current
        }
        return description
    }

    /// The reduced description DeleteTable returns: no key schema, attribute definitions,
    /// creation time or indexes, status `DELETING` (captures of the service, 2016 and 2022).
    package var deletedTableDescription: TableDescription {
        var description = identity(arn: ResourceNames.tableARN(region: region, table: definition.name))
        description.tableStatus = .deleting
        description.deletionProtectionEnabled = definition.deletionProtectionEnabled
        return description
    }

    /// The description CreateTable returns: as DescribeTable's, without `WarmThroughput` for a
    /// table created without one (DynamoDB's recorded CreateTable answers, 2025-2026).
    package func createdTableDescription(warmThroughputRequested: Bool) -> TableDescription {
        var description = tableDescription
        if !warmThroughputRequested { description.warmThroughput = nil }
        return description
    }

    /// What every description holds: name, throughput, size, ARN, id, and the billing mode of a
    /// table that is or was on demand (a table provisioned since its creation has no
    /// `BillingModeSummary`, as DynamoDB's recorded descriptions show).
    private func identity(arn: String) -> TableDescription {
        var billing: BillingModeSummary?
        let switched = definition.billingModeLastUpdate.map { $0 != definition.creationDateTime } ?? false
        if definition.billingMode == .payPerRequest || switched {
            var summary = BillingModeSummary(billingMode: definition.billingMode)
            if let lastUpdate = definition.billingModeLastUpdate, definition.billingMode == .payPerRequest {
                summary.lastUpdateToPayPerRequestDateTime = Timestamp(secondsSince1970: lastUpdate)
            }
            billing = summary
        }
        return TableDescription(
            tableName: definition.name, provisionedThroughput: Self.throughput(definition.throughput),
            tableSizeBytes: Int(sizeBytes), itemCount: Int(itemCount), tableArn: arn, tableId: definition.tableID,
            billingModeSummary: billing)
    }

    private func globalIndex(_ index: IndexDefinition, tableARN: String) -> GlobalSecondaryIndexDescription {
        let status = indexStatus[index.name] ?? index.status
        let statistics = indexStatistics[index.name]
        return GlobalSecondaryIndexDescription(
            indexName: index.name, keySchema: Self.keySchema(partition: index.partitionAttributes, sort: index.sortAttributes),
            projection: Self.projection(index), indexStatus: status,
            backfilling: status == .creating ? backfilling : nil,
            provisionedThroughput: Self.throughput(
                index.throughput
                    ?? ThroughputSettings(
                        readCapacityUnits: 0,
                        writeCapacityUnits: 0)),
            indexSizeBytes: Int(statistics?.sizeBytes ?? 0), itemCount: Int(statistics?.itemCount ?? 0),
            indexArn: "\(tableARN)/index/\(index.name)",
            warmThroughput: definition.warmThroughput(of: index, now: describedAt))
    }

    private func vectorIndex(_ index: VectorIndexDefinition, tableARN: String) -> VectorIndexDescription {
        let deleted = deletedVectorIndexes.contains { $0.name == index.name }
        let status: IndexStatus = deleted ? .deleting : vectorIndexStatus[index.name] ?? .active
        let statistics = vectorIndexStatistics[index.name]
        return VectorIndexDescription(
            indexName: index.name, searchSchema: index.searchSchemaElements,
            projection: Projection(projectionType: index.projectionType, nonKeyAttributes: index.nonKeyAttributes?.sorted(by: Self.byName)),
            vectorAttribute: VectorAttributeDefinition(attributeName: index.vectorAttribute), dimensions: index.dimensions,
            distanceFunction: index.distanceFunction, indexStatus: status,
            backfilling: status == .creating ? backfilling : nil,
            indexSizeBytes: Int(statistics?.sizeBytes ?? 0), itemCount: Int(statistics?.itemCount ?? 0),
            indexArn: "\(tableARN)/index/\(index.name)")
    }

    private static func projection(_ index: IndexDefinition) -> Projection {
        Projection(
            projectionType: index.projectionType,
            nonKeyAttributes: index.nonKeyAttributes?.sorted(by: byName))
    }

    /// Every partition-key attribute, then every sort-key attribute (more than one of each for
    /// multi-attribute keys).
    private static func keySchema(partition: [KeyAttribute], sort: [KeyAttribute]) -> [KeySchemaElement] {
        partition.map { KeySchemaElement(attributeName: $0.name, keyType: .hash) }
            + sort.map { KeySchemaElement(attributeName: $0.name, keyType: .range) }
    }

    private static func throughput(_ throughput: ThroughputSettings) -> ProvisionedThroughputDescription {
        ProvisionedThroughputDescription(
            lastIncreaseDateTime: throughput.lastIncreaseDateTime.map(Timestamp.init(secondsSince1970:)),
            lastDecreaseDateTime: throughput.lastDecreaseDateTime.map(Timestamp.init(secondsSince1970:)),
            numberOfDecreasesToday: throughput.numberOfDecreasesToday, readCapacityUnits: throughput.readCapacityUnits,
            writeCapacityUnits: throughput.writeCapacityUnits)
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
    private static func byName(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}
