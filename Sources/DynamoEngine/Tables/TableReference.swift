import DynamoAPI

/// A `TableName` member, which DynamoDB accepts as a table name or as the table's ARN.
enum TableReference {
    /// The table name a reference names.
    ///
    /// An ARN `arn:<partition>:dynamodb:<region>:<account>:table/<name>` resolves to `<name>`;
    /// anything else is taken as a name.
    static func name(from reference: String) -> String {
        guard reference.hasPrefix("arn:") else { return reference }
        let parts = reference.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[2] == "dynamodb", parts[5].hasPrefix("table/") else { return reference }
        let resource = parts[5].dropFirst("table/".count)
        // `table/<name>/index/...` and `table/<name>/stream/...` name sub-resources.
        return String(resource.split(separator: "/", maxSplits: 1).first ?? resource)
    }
}
