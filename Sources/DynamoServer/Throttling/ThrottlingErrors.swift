import DynamoAPI
import DynamoEngine

/// The errors a throttled request gets, in DynamoDB's wording, with the `ThrottlingReasons` the
/// service has returned since 2025: a reason `ResourceType+OperationType+LimitType`
/// (`TableWriteProvisionedThroughputExceeded`, `IndexReadMaxOnDemandThroughputExceeded`, …) and
/// the ARN of the table or index.
enum ThrottlingErrors {
    static let tableProvisioned =
        "The level of configured provisioned throughput for the table was exceeded. "
        + "Consider increasing your provisioning level with the UpdateTable API."
    static let indexProvisioned =
        "The level of configured provisioned throughput for one or more global secondary "
        + "indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned "
        + "global secondary indexes with the UpdateTable API"
    static let tableOnDemand =
        "Throughput exceeds the current capacity of your table or index. DynamoDB is "
        + "automatically scaling your table or index so please try again shortly. If exceptions persist, check if "
        + "you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
    static let indexOnDemand =
        "Throughput exceeds the current capacity for one or more global secondary indexes. "
        + "DynamoDB is automatically scaling your index so please try again shortly."

    /// The error for a table (or, with `index`, one of its global indexes) out of capacity.
    ///
    /// - Parameters:
    ///   - provisioned: the table is in provisioned mode (`ProvisionedThroughputExceededException`);
    ///     otherwise on-demand (`ThrottlingException`).
    ///   - configuredMaximum: an on-demand table's own `OnDemandThroughput` maximum was hit
    ///     (`MaxOnDemandThroughputExceeded`) rather than the account's per-table limit.
    ///   - keyRange: one partition key value's per-partition limit was hit
    ///     (`KeyRangeThroughputExceeded`, a hot key), in either mode.
    static func error(
        table: TableDefinition, index: IndexDefinition?, isWrite: Bool, provisioned: Bool,
        configuredMaximum: Bool, keyRange: Bool = false, region: String
    ) -> DynamoError {
        let limit =
            keyRange
            ? "KeyRangeThroughputExceeded"
            : provisioned
                ? "ProvisionedThroughputExceeded"
                : configuredMaximum ? "MaxOnDemandThroughputExceeded" : "AccountLimitExceeded"
        let reason = (index == nil ? "Table" : "Index") + (isWrite ? "Write" : "Read") + limit
        var resource = ResourceNames.tableARN(region: region, table: table.name)
        if let index { resource += "/index/\(index.name)" }
        let reasons = [ThrottlingReason(reason: reason, resource: resource)]
        if provisioned {
            return DynamoError(
                .provisionedThroughputExceeded, index == nil ? tableProvisioned : indexProvisioned,
                throttlingReasons: reasons)
        }
        return DynamoError(.throttling, index == nil ? tableOnDemand : indexOnDemand, throttlingReasons: reasons)
    }
}
