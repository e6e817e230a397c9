import DynamoAPI

/// Control-plane state kept beside a table's schema: resource policies, contributor insights,
/// Kinesis streaming destinations, warm throughput, replica auto scaling and the table's
/// global-table replication group. Persisted inside the table's catalog definition, so it lives
/// and dies with the table and survives restarts.
package struct TableSettings: Codable, Sendable, Hashable {
    /// Resource-based policies by the ARN they are attached to (the table's or one of its streams').
    package var policies: [String: StoredPolicy]?
    /// Contributor Insights by index name; the table's own entry is keyed `""`.
    package var contributorInsights: [String: StoredInsights]?
    /// Kinesis Data Streams destinations, in the order they were first enabled.
    package var kinesisDestinations: [StoredKinesisDestination]?
    /// Warm throughput asked for at CreateTable or UpdateTable (read, write units per second).
    package var warmRead: Int?
    package var warmWrite: Int?
    /// When the table's warm throughput was last asked for (UPDATING until it settles).
    package var warmChangedAt: Double?
    /// The replication group when the table is a global table (see `ReplicationGroup`).
    package var replication: ReplicationGroup?
    /// Replica auto scaling settings (UpdateTableReplicaAutoScaling stores them,
    /// DescribeTableReplicaAutoScaling reports them): the JSON of an
    /// `AutoScalingSettingsDescription` under `write`, `read:<region>`, `index:<name>:write`
    /// and `index:<name>:read:<region>`.
    package var autoScaling: [String: String]?
    /// `true` once UpdateTable turned this replica's disassociation protection off (it is on by
    /// default, so a table that never changed it stores nothing).
    package var disassociationProtectionOff: Bool?

    package init() {}
}

/// A resource-based policy document and its revision.
package struct StoredPolicy: Codable, Sendable, Hashable {
    package var document: String
    package var revisionID: String
}

/// Contributor Insights of a table or index: the last requested state and when it was asked for.
package struct StoredInsights: Codable, Sendable, Hashable {
    /// Whether the last UpdateContributorInsights enabled (`true`) or disabled it.
    package var enabled: Bool
    /// `ACCESSED_AND_THROTTLED_KEYS` or `THROTTLED_KEYS`.
    package var mode: ContributorInsightsMode
    /// Server-clock seconds of the last change.
    package var changedAt: Double
}

/// A Kinesis Data Streams destination: state only (nothing is sent; there is no Kinesis here).
package struct StoredKinesisDestination: Codable, Sendable, Hashable {
    package var streamARN: String
    /// The status the destination settles in (`ACTIVE`, `ENABLE_FAILED` or `DISABLED`).
    package var settledStatus: DestinationStatus
    /// The status shown until `changedAt + Transition.seconds` (`ENABLING`, `DISABLING`, `UPDATING`).
    package var transitionalStatus: DestinationStatus
    package var changedAt: Double
    /// `MILLISECOND` or `MICROSECOND`; `nil` until asked for (DynamoDB then omits it and means
    /// MILLISECOND).
    package var precision: ApproximateCreationDateTimePrecision?
    /// Why the destination settled in ENABLE_FAILED.
    package var failure: String?
}

/// The replication group of a global table, the same on every replica.
package struct ReplicationGroup: Codable, Sendable, Hashable {
    /// `2019.11.21` (replicas managed through UpdateTable) or `2017.11.29` (CreateGlobalTable).
    package var version: String
    /// Every region of the group, this replica's own included, in the order they joined.
    package var regions: [String]
    /// When the group was formed (the 2017 API reports it as the global table's creation time).
    package var createdAt: Double
    /// Replicas' own read capacity (`ProvisionedThroughputOverride`), by region.
    package var readOverrides: [String: Int]? = nil
}

/// How long a transitional status (ENABLING, DISABLING, UPDATING) lasts on the server clock
/// before it settles: long enough for a client to see it, short enough that pollers move on.
package enum Transition {
    package static let seconds = 1.0

    /// Whether a change made at `changedAt` has settled by `now`.
    package static func settled(since changedAt: Double, now: Double) -> Bool {
        now >= changedAt + seconds
    }
}

extension TableDefinition {
    /// The table's control-plane settings (empty for a table that never had any).
    package var controlSettings: TableSettings {
        get { settings ?? TableSettings() }
        set { settings = newValue }
    }
}
