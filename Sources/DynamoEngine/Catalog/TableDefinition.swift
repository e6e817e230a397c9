import DynamoAPI

/// A key attribute of a table or index: its name and scalar type.
package struct KeyAttribute: Codable, Sendable, Hashable {
    package var name: String
    package var type: KeyScalarType
}

/// Provisioned throughput settings as DescribeTable reports them.
package struct ThroughputSettings: Codable, Sendable, Hashable {
    package var readCapacityUnits: Int
    package var writeCapacityUnits: Int
    package var lastIncreaseDateTime: Double?
    package var lastDecreaseDateTime: Double?
    package var numberOfDecreasesToday: Int = 0

    package init(readCapacityUnits: Int, writeCapacityUnits: Int) {
        self.readCapacityUnits = readCapacityUnits
        self.writeCapacityUnits = writeCapacityUnits
    }
}

/// A secondary index as declared at CreateTable or UpdateTable.
package struct IndexDefinition: Codable, Sendable, Hashable {
    package var name: String
    package var partitionKey: KeyAttribute
    package var sortKey: KeyAttribute?
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
    package var projectionType: ProjectionType
    package var nonKeyAttributes: [String]?
    /// Provisioned throughput of a global index in a PROVISIONED table.
    package var throughput: ThroughputSettings?
    /// `CREATING`, `ACTIVE`, `UPDATING` or `DELETING` (global indexes only).
    package var status: IndexStatus = .active
    /// Number of the SQLite table that holds the index's entries (`index_<table>_<number>`).
    package var storageNumber: Int = 0
    /// Whether this is a global secondary index (its own partition key).
    package var isGlobal: Bool = false
    /// A multi-attribute global index's further partition-key attributes (up to three more), in
    /// key-schema order.
    package var extraPartitionKeys: [KeyAttribute]? = nil
    /// A multi-attribute global index's further sort-key attributes (up to three more), in
    /// key-schema order.
    package var extraSortKeys: [KeyAttribute]? = nil

    /// Every partition-key attribute, in key-schema order.
    package var partitionAttributes: [KeyAttribute] { [partitionKey] + (extraPartitionKeys ?? []) }
    /// Every sort-key attribute, in key-schema order.
    package var sortAttributes: [KeyAttribute] { (sortKey.map { [$0] } ?? []) + (extraSortKeys ?? []) }
    /// How many attributes the partition key has (counted without building the list).
    package var partitionAttributeCount: Int { 1 + (extraPartitionKeys?.count ?? 0) }
    /// How many attributes the sort key has (counted without building the list).
    package var sortAttributeCount: Int { (sortKey == nil ? 0 : 1) + (extraSortKeys?.count ?? 0) }
    /// Whether the partition or the sort key has more than one attribute.
    package var isMultiAttribute: Bool { partitionAttributeCount > 1 || sortAttributeCount > 1 }

    /// The key attributes of the index, partition key attributes first.
    package var keyAttributes: [KeyAttribute] { partitionAttributes + sortAttributes }
}

/// Everything the catalog knows about one table, persisted as JSON in the catalog table.
package struct TableDefinition: Codable, Sendable {
    package var name: String
    /// Number of the SQLite table that holds this table's items (`items_<storageID>`).
    package var storageID: Int64
    /// The table's UUID, as `TableId` reports it.
    package var tableID: String
    package var partitionKey: KeyAttribute
    package var sortKey: KeyAttribute?
    /// Every attribute definition, table and index keys alike, in the order given.
    package var attributeDefinitions: [KeyAttribute]
    package var creationDateTime: Double
    /// `PROVISIONED` or `PAY_PER_REQUEST`.
    package var billingMode: BillingMode
    package var billingModeLastUpdate: Double?
    package var throughput: ThroughputSettings
    package var localIndexes: [IndexDefinition] = []
    package var globalIndexes: [IndexDefinition] = []
    package var tags: [String: String] = [:]
    package var tagOrder: [String] = []
    package var streamViewType: StreamViewType?
    package var streamLabel: String?
    package var sseEnabled: Bool = false
    package var sseType: SSEType?
    package var kmsMasterKeyID: String?
    package var tableClass: TableClass?
    package var deletionProtectionEnabled: Bool = false
    package var onDemandMaxRead: Int?
    package var onDemandMaxWrite: Int?
    package var ttlAttribute: String?
    package var ttlEnabled: Bool = false
    /// Point-in-time recovery, while it is enabled (see `PITRSettings`).
    package var pointInTimeRecovery: PITRSettings?
    /// Where a restored table came from (DescribeTable's `RestoreSummary`).
    package var restoreSummary: RestoreOrigin?
    /// Resource policies, contributor insights, Kinesis destinations, warm throughput and the
    /// replication group (see `TableSettings`); `nil` until one is set.
    package var settings: TableSettings? = nil
    /// When Time to Live was last turned on or off (server clock), for DynamoDB's one-hour limit.
    package var ttlChangedAt: Double? = nil

    /// The key attributes of the table, partition key first.
    package var keyAttributes: [KeyAttribute] {
        if let sortKey { return [partitionKey, sortKey] }
        return [partitionKey]
    }

    /// Every secondary index, local ones first.
    package var indexes: [IndexDefinition] { localIndexes + globalIndexes }

    /// Every secondary index in name order: the order in which DynamoDB checks an item's index
    /// keys, so an error names the alphabetically first index keyed on the attribute.
    package var indexesByName: [IndexDefinition] { indexes.sorted { $0.name < $1.name } }

    /// The index called `name`, if the table has one.
    package func index(named name: String) -> IndexDefinition? {
        indexes.first { $0.name == name }
    }

    /// Whether `name` is one of the table's own key attributes.
    package func isKeyAttribute(_ name: String) -> Bool {
        name == partitionKey.name || name == sortKey?.name
    }
}

/// The ARN and naming conventions the engine reports.
package enum ResourceNames {
    /// The account id in ARNs: a local server belongs to no AWS account.
    package static let accountID = "000000000000"

    package static func tableARN(region: String, table: String) -> String {
        "arn:aws:dynamodb:\(region):\(accountID):table/\(table)"
    }
}
