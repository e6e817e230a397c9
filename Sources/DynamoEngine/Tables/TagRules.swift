import DynamoAPI

/// DynamoDB's tagging rules, for TagResource, UntagResource and the tags given at CreateTable.
///
/// As the service answered them in measurements of 2026-10 (ack-api-quirks): keys of 1–128 and
/// values of 0–256 characters (the service model's lengths, which DynamoDB checks here, in these
/// words, rather than as constraint violations when the request is decoded); letters of any
/// script, numbers, white space and `+ - = . _ : / @` only; the
/// reserved `aws:` key prefix (any case, refused on UntagResource too); a key once per request;
/// at most 50 tags on a table and 50 keys in one UntagResource; a tag list or key list that is
/// not empty. Each refusal is a `ValidationException`, and a refused request changes nothing.
enum TagRules {
    /// The most tags one table may carry.
    static let maximumTags = 50

    /// The longest tag key and value, in Unicode characters.
    static let maximumKeyLength = 128
    static let maximumValueLength = 256

    /// Whether a tag key has an allowed length.
    static func allowedKeyLength(_ key: String) -> Bool {
        (1...maximumKeyLength).contains(key.unicodeScalars.count)
    }

    /// Whether a tag key or value uses only the allowed characters.
    static func allowedCharacters(_ text: String) -> Bool {
        text.allSatisfy { $0.isLetter || $0.isNumber || $0.isWhitespace || "+-=._:/@".contains($0) }
    }

    /// Checks one tag.
    static func check(key: String, value: String) throws(DynamoError) {
        guard allowedKeyLength(key), allowedCharacters(key) else {
            throw EngineMessages.tagKeyInvalid(key: key)
        }
        guard value.unicodeScalars.count <= maximumValueLength, allowedCharacters(value) else {
            throw EngineMessages.tagValueInvalid(value: value)
        }
        try checkPrefix(key: key)
    }

    /// Refuses a key with the reserved `aws:` prefix.
    static func checkPrefix(key: String) throws(DynamoError) {
        guard !key.lowercased().hasPrefix("aws:") else {
            throw EngineMessages.tagKeyAwsPrefix(key: key)
        }
    }

    /// Checks the keys an UntagResource names.
    static func checkRemoval(keys: [String]) throws(DynamoError) {
        guard !keys.isEmpty else { throw EngineMessages.noTagKeysGiven }
        for key in keys {
            guard allowedKeyLength(key) else { throw EngineMessages.tagKeyInvalid(key: key) }
            try checkPrefix(key: key)
        }
        if keys.count > maximumTags { throw EngineMessages.tooManyTags }
    }
}

extension TableDefinition {
    /// Adds or replaces tags, checking each, that no key comes twice, and the total against
    /// DynamoDB's rules (nothing changes when a check fails: the caller's copy is discarded).
    mutating func applyTags(_ tags: [(key: String, value: String)]) throws(DynamoError) {
        var given = Set<String>()
        for tag in tags {
            try TagRules.check(key: tag.key, value: tag.value)
            guard given.insert(tag.key).inserted else {
                throw EngineMessages.duplicateTagKey(key: tag.key)
            }
            if self.tags[tag.key] == nil { tagOrder.append(tag.key) }
            self.tags[tag.key] = tag.value
        }
        if self.tags.count > TagRules.maximumTags {
            throw EngineMessages.tooManyTags
        }
    }
}
