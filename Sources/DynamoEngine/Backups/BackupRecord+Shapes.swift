import DynamoAPI

extension BackupRecord {
    /// `BackupDetails` for CreateBackup, DescribeBackup and DeleteBackup.
    func details(status: BackupStatus = .available) -> BackupDetails {
        BackupDetails(
            backupArn: arn, backupName: name, backupSizeBytes: Int(sizeBytes), backupStatus: status,
            backupType: BackupType(rawValue: type),
            backupCreationDateTime: Timestamp(secondsSince1970: creationDateTime))
    }

    /// The full `BackupDescription`: the backup, its source table and the table's features.
    func description(region: String, status: BackupStatus = .available) -> BackupDescription {
        let source = SourceTableDetails(
            tableName: table.name, tableId: table.tableID, tableArn: tableARN, tableSizeBytes: Int(sizeBytes),
            keySchema: TableShapes.keySchema(partition: [table.partitionKey], sort: table.sortKey.map { [$0] } ?? []),
            tableCreationDateTime: Timestamp(secondsSince1970: table.creationDateTime),
            provisionedThroughput: ProvisionedThroughput(
                readCapacityUnits: table.throughput.readCapacityUnits,
                writeCapacityUnits: table.throughput.writeCapacityUnits),
            onDemandThroughput: table.billingMode == .payPerRequest
                ? OnDemandThroughput(
                    maxReadRequestUnits: table.onDemandMaxRead ?? -1,
                    maxWriteRequestUnits: table.onDemandMaxWrite ?? -1) : nil,
            itemCount: Int(itemCount), billingMode: table.billingMode)
        let local = table.localIndexes.map { index in
            LocalSecondaryIndexInfo(
                indexName: index.name,
                keySchema: TableShapes.keySchema(
                    partition: index.partitionAttributes,
                    sort: index.sortAttributes),
                projection: TableShapes.projection(of: index))
        }
        let global = table.globalIndexes.map { index in
            GlobalSecondaryIndexInfo(
                indexName: index.name,
                keySchema: TableShapes.keySchema(
                    partition: index.partitionAttributes,
                    sort: index.sortAttributes),
                projection: TableShapes.projection(of: index),
                provisionedThroughput: ProvisionedThroughput(
                    readCapacityUnits: index.throughput?.readCapacityUnits ?? 0,
                    writeCapacityUnits: index.throughput?.writeCapacityUnits ?? 0))
        }
        let features = SourceTableFeatureDetails(
            localSecondaryIndexes: local.isEmpty ? nil : local,
            globalSecondaryIndexes: global.isEmpty ? nil : global,
            streamDescription: table.streamViewType.map {
                StreamSpecification(streamEnabled: true, streamViewType: $0)
            },
            timeToLiveDescription: table.ttlEnabled
                ? TimeToLiveDescription(timeToLiveStatus: .enabled, attributeName: table.ttlAttribute) : nil,
            sseDescription: table.sseEnabled
                ? SSEDescription(status: .enabled, sseType: table.sseType ?? .kms) : nil,
            vectorIndexes: table.vectorIndexes.isEmpty
                ? nil
                : table.vectorIndexes.map { index in
                    VectorIndexInfo(
                        indexName: index.name, vectorAttribute: VectorAttributeDefinition(attributeName: index.vectorAttribute),
                        searchSchema: index.searchSchemaElements,
                        projection: Projection(projectionType: index.projectionType, nonKeyAttributes: index.nonKeyAttributes),
                        dimensions: index.dimensions, distanceFunction: index.distanceFunction)
                })
        return BackupDescription(
            backupDetails: details(status: status), sourceTableDetails: source,
            sourceTableFeatureDetails: features)
    }

    /// The `BackupSummary` ListBackups returns.
    var summary: BackupSummary {
        BackupSummary(
            tableName: table.name, tableId: table.tableID, tableArn: tableARN, backupArn: arn,
            backupName: name, backupCreationDateTime: Timestamp(secondsSince1970: creationDateTime),
            backupStatus: .available, backupType: BackupType(rawValue: type),
            backupSizeBytes: Int(sizeBytes))
    }
}

/// Pieces of a table's definition as the generated shapes spell them.
enum TableShapes {
    /// Every partition-key attribute as `HASH`, then every sort-key attribute as `RANGE`.
    static func keySchema(partition: [KeyAttribute], sort: [KeyAttribute]) -> [KeySchemaElement] {
        partition.map { KeySchemaElement(attributeName: $0.name, keyType: .hash) }
            + sort.map { KeySchemaElement(attributeName: $0.name, keyType: .range) }
    }

    /// An index's projection.
    static func projection(of index: IndexDefinition) -> Projection {
        Projection(
            projectionType: index.projectionType,
            nonKeyAttributes: index.nonKeyAttributes)
    }
}
