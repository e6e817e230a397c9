import DynamoAPI

/// DynamoDB's tagging rules, for TagResource and for the tags given at CreateTable.
///
/// Lengths (keys 1–128, values 0–256) are the service model's constraints, checked when the
/// request is decoded. Here: the character set of the developer guide ("letters, white space,
/// and numbers, plus `+ - = . _ : /`"), the reserved `aws:` key prefix (any case), and at most
/// 50 tags on a table. The service refuses each with a `ValidationException` (ScyllaDB's tests
/// run against it: an over-50 TagResource and a CreateTable with 100 tags, keys and values such
/// as `#!%^$&` and `<><`); its message texts were not captured, so these name the rule broken.
enum TagRules {
    /// The most tags one table may carry.
    static let maximumTags = 50

    /// Whether a tag key or value uses only the allowed characters.
    static func allowedCharacters(_ text: String) -> Bool {
        text.allSatisfy { $0.isLetter || $0.isNumber || $0.isWhitespace || "+-=._:/".contains($0) }
    }

    /// Checks one tag.
    static func check(key: String, value: String) throws(DynamoError) {
        guard allowedCharacters(key) else {
            throw EngineMessages.invalidTagKeyTagKeys(key: key)
        }
        guard allowedCharacters(value) else {
            throw EngineMessages.invalidTagValueKeyTag(key: key)
        }
        guard !key.lowercased().hasPrefix("aws:") else {
            throw EngineMessages.invalidTagKeyAwsPrefix(key: key)
        }
    }
}

extension TableDefinition {
    /// Adds or replaces tags (a key appears once; a repeated key takes the new value), checking
    /// each and the total against DynamoDB's rules.
    mutating func applyTags(_ tags: [(key: String, value: String)]) throws(DynamoError) {
        for tag in tags {
            try TagRules.check(key: tag.key, value: tag.value)
            if self.tags[tag.key] == nil { tagOrder.append(tag.key) }
            self.tags[tag.key] = tag.value
        }
        if self.tags.count > TagRules.maximumTags {
            throw EngineMessages.numberTagsResourceExceedsMaximum
        }
    }
}
