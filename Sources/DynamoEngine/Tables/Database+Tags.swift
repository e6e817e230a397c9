import DynamoAPI

extension Database {
    /// The table a resource ARN names, or DynamoDB's not-found error for tagging calls.
    private func taggedTable(_ arn: String) throws -> String {
        // Something that is not a table ARN (an index's, a backup's, another region's) is a
        // validation error, worded as the service words each; a well-formed ARN of a table that
        // does not exist is "not found".
        guard arn.hasPrefix("arn:") else { throw EngineMessages.arnMustStartWithArn(arn: arn) }
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[2] == "dynamodb", String(parts[3]) == region else {
            throw EngineMessages.invalidTableArnInvalidResourceArnProvided(arn: arn)
        }
        let resource = parts[5].split(separator: "/", omittingEmptySubsequences: false)
        if resource.count == 4, resource[0] == "table", resource[2] == "index" {
            throw EngineMessages.invalidResourceArnProvidedOnly(arn: arn)
        }
        guard resource.count >= 2, resource[0] == "table", resource.count == 2 || resource[2] == "stream" else {
            throw EngineMessages.providedArnNotDynamoDBResource(arn: arn)
        }
        let name = TableReference.name(from: arn)
        guard cachedDefinition(name) != nil else {
            throw EngineMessages.resourceArnNotFound(arn: arn)
        }
        return name
    }

    /// Adds or replaces tags on a table (DynamoDB's rules: `TagRules`).
    package func tagResource(arn: String, tags: [(key: String, value: String)]) throws {
        guard !tags.isEmpty else { throw EngineMessages.noTagsGiven }
        let name = try taggedTable(arn)
        _ = try updateDefinition(named: name) { definition in try definition.applyTags(tags) }
    }

    /// Removes tags from a table (absent keys are ignored; DynamoDB's rules: `TagRules`).
    package func untagResource(arn: String, keys: [String]) throws {
        try TagRules.checkRemoval(keys: keys)
        let name = try taggedTable(arn)
        _ = try updateDefinition(named: name) { definition in
            var tags = definition.tags
            for key in keys { tags[key] = nil }
            definition.tags = tags
            definition.tagOrder.removeAll { tags[$0] == nil }
        }
    }

    /// A table's tags in the order they were added.
    package func listTags(arn: String) throws -> [(key: String, value: String)] {
        let name = try taggedTable(arn)
        let definition = try table(named: name)
        return definition.tagOrder.compactMap { key in definition.tags[key].map { (key, $0) } }
    }
}
