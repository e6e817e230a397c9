import DynamoAPI

extension Database {
    /// The table a resource ARN names, or DynamoDB's not-found error for tagging calls.
    private func taggedTable(_ arn: String) throws -> String {
        // Something that is not a table ARN at all (or an index's ARN) is a validation error;
        // a well-formed ARN of a table that does not exist is "not found".
        guard arn.hasPrefix("arn:"), !arn.contains("/index/") else {
            throw EngineMessages.invalidTableArnInvalidResourceArnProvided(arn: arn)
        }
        let name = TableReference.name(from: arn)
        guard cachedDefinition(name) != nil else {
            // DynamoDB's own spelling, "ResourcArn", included.
            throw EngineMessages.resourceArnNotFound(arn: arn)
        }
        return name
    }

    /// Adds or replaces tags on a table (DynamoDB's rules: `TagRules`).
    package func tagResource(arn: String, tags: [(key: String, value: String)]) throws {
        let name = try taggedTable(arn)
        _ = try updateDefinition(named: name) { definition in try definition.applyTags(tags) }
    }

    /// Removes tags from a table (absent keys are ignored).
    package func untagResource(arn: String, keys: [String]) throws {
        let name = try taggedTable(arn)
        _ = try updateDefinition(named: name) { definition in
            for key in keys { definition.tags[key] = nil }
            definition.tagOrder.removeAll { definition.tags[$0] == nil }
        }
    }

    /// A table's tags in the order they were added.
    package func listTags(arn: String) throws -> [(key: String, value: String)] {
        let name = try taggedTable(arn)
        let definition = try table(named: name)
        return definition.tagOrder.compactMap { key in definition.tags[key].map { (key, $0) } }
    }
}
