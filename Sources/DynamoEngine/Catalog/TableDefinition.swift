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
    /// A global index's warm throughput as asked for (read, write units per second) and when.
    package var warmRead: Int? = nil
    package var warmWrite: Int? = nil
    package var warmChangedAt: Double? = nil

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
///
/// A copy-on-write value over one immutable box: every item request reads its table's
/// definition from the catalog snapshot and hands it to the stores it uses, and a copy of the
/// thirty fields (twenty of them reference counted) on each hand-off was a measurable share of
/// a request; a copy is now one reference.
package struct TableDefinition: Codable, Sendable {
    /// The stored members, persisted as they are (the catalog's JSON is this struct's).
    package struct Fields: Codable, Sendable {
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
        /// The vector indexes (see `VectorIndexDefinition`); `nil` when there are none, so a
        /// catalog written before vector indexes existed reads unchanged.
        package var vectorIndexes: [VectorIndexDefinition]? = nil
    }

    /// One definition's fields, shared by every copy until one changes; the index lists are
    /// worked out once here rather than on each write that reads them.
    private final class Box: Sendable {
        let fields: Fields
        /// Every secondary index, local ones first.
        let indexes: [IndexDefinition]
        /// ``indexes`` in name order.
        let indexesByName: [IndexDefinition]
        /// The key attributes, partition key first (every item write checks them).
        let keyAttributes: [KeyAttribute]

        init(_ fields: Fields) {
            self.fields = fields
            indexes = fields.localIndexes + fields.globalIndexes
            indexesByName = indexes.sorted { $0.name < $1.name }
            keyAttributes = fields.sortKey.map { [fields.partitionKey, $0] } ?? [fields.partitionKey]
        }
    }

    private var box: Box

    /// A definition of these fields.
    package init(_ fields: Fields) {
        box = Box(fields)
    }

    package init(from decoder: any Decoder) throws {
        box = Box(try Fields(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try box.fields.encode(to: encoder)
    }

    /// Every field at once.
    package var fields: Fields { box.fields }

    /// Changes the fields: a new box, as a change is rare (catalog operations) and reads are not.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    // Each field, read from the shared box and written through `change` (see ``Fields``).

    package var name: String {
        get { box.fields.name }
        set { change { $0.name = newValue } }
    }
    package var storageID: Int64 {
        get { box.fields.storageID }
        set { change { $0.storageID = newValue } }
    }
    package var tableID: String {
        get { box.fields.tableID }
        set { change { $0.tableID = newValue } }
    }
    package var partitionKey: KeyAttribute {
        get { box.fields.partitionKey }
        set { change { $0.partitionKey = newValue } }
    }
    package var sortKey: KeyAttribute? {
        get { box.fields.sortKey }
        set { change { $0.sortKey = newValue } }
    }
    package var attributeDefinitions: [KeyAttribute] {
        get { box.fields.attributeDefinitions }
        set { change { $0.attributeDefinitions = newValue } }
    }
    package var creationDateTime: Double {
        get { box.fields.creationDateTime }
        set { change { $0.creationDateTime = newValue } }
    }
    package var billingMode: BillingMode {
        get { box.fields.billingMode }
        set { change { $0.billingMode = newValue } }
    }
    package var billingModeLastUpdate: Double? {
        get { box.fields.billingModeLastUpdate }
        set { change { $0.billingModeLastUpdate = newValue } }
    }
    package var throughput: ThroughputSettings {
        get { box.fields.throughput }
        set { change { $0.throughput = newValue } }
    }
    package var localIndexes: [IndexDefinition] {
        get { box.fields.localIndexes }
        set { change { $0.localIndexes = newValue } }
    }
    package var globalIndexes: [IndexDefinition] {
        get { box.fields.globalIndexes }
        set { change { $0.globalIndexes = newValue } }
    }
    package var tags: [String: String] {
        get { box.fields.tags }
        set { change { $0.tags = newValue } }
    }
    package var tagOrder: [String] {
        get { box.fields.tagOrder }
        set { change { $0.tagOrder = newValue } }
    }
    package var streamViewType: StreamViewType? {
        get { box.fields.streamViewType }
        set { change { $0.streamViewType = newValue } }
    }
    package var streamLabel: String? {
        get { box.fields.streamLabel }
        set { change { $0.streamLabel = newValue } }
    }
    package var sseEnabled: Bool {
        get { box.fields.sseEnabled }
        set { change { $0.sseEnabled = newValue } }
    }
    package var sseType: SSEType? {
        get { box.fields.sseType }
        set { change { $0.sseType = newValue } }
    }
    package var kmsMasterKeyID: String? {
        get { box.fields.kmsMasterKeyID }
        set { change { $0.kmsMasterKeyID = newValue } }
    }
    package var tableClass: TableClass? {
        get { box.fields.tableClass }
        set { change { $0.tableClass = newValue } }
    }
    package var deletionProtectionEnabled: Bool {
        get { box.fields.deletionProtectionEnabled }
        set { change { $0.deletionProtectionEnabled = newValue } }
    }
    package var onDemandMaxRead: Int? {
        get { box.fields.onDemandMaxRead }
        set { change { $0.onDemandMaxRead = newValue } }
    }
    package var onDemandMaxWrite: Int? {
        get { box.fields.onDemandMaxWrite }
        set { change { $0.onDemandMaxWrite = newValue } }
    }
    package var ttlAttribute: String? {
        get { box.fields.ttlAttribute }
        set { change { $0.ttlAttribute = newValue } }
    }
    package var ttlEnabled: Bool {
        get { box.fields.ttlEnabled }
        set { change { $0.ttlEnabled = newValue } }
    }
    package var pointInTimeRecovery: PITRSettings? {
        get { box.fields.pointInTimeRecovery }
        set { change { $0.pointInTimeRecovery = newValue } }
    }
    package var restoreSummary: RestoreOrigin? {
        get { box.fields.restoreSummary }
        set { change { $0.restoreSummary = newValue } }
    }
    package var settings: TableSettings? {
        get { box.fields.settings }
        set { change { $0.settings = newValue } }
    }
    package var ttlChangedAt: Double? {
        get { box.fields.ttlChangedAt }
        set { change { $0.ttlChangedAt = newValue } }
    }

    /// The table's vector indexes, in the order they were declared.
    package var vectorIndexes: [VectorIndexDefinition] {
        get { box.fields.vectorIndexes ?? [] }
        set { change { $0.vectorIndexes = newValue.isEmpty ? nil : newValue } }
    }

    /// The key attributes of the table, partition key first.
    package var keyAttributes: [KeyAttribute] { box.keyAttributes }

    /// Every secondary index, local ones first.
    package var indexes: [IndexDefinition] { box.indexes }

    /// Every secondary index in name order: the order in which DynamoDB checks an item's index
    /// keys, so an error names the alphabetically first index keyed on the attribute.
    package var indexesByName: [IndexDefinition] { box.indexesByName }

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
