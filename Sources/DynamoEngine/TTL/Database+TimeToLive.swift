import DynamoAPI

extension Database {
    /// How long after one Time to Live change DynamoDB refuses the next.
    static let timeToLiveChangeInterval: Double = 3600

    /// Turns Time to Live on or off, with DynamoDB's rules: enabling needs TTL off (or on for the
    /// same attribute: "already enabled"), disabling needs it on for the named attribute, and a
    /// second change within an hour (server clock) of the last is refused. The table's
    /// ``ExpiryIndex`` is built from its items (enable) or dropped (disable) in the same
    /// transaction.
    package func updateTimeToLive(_ input: UpdateTimeToLiveInput) throws -> UpdateTimeToLiveOutput {
        let specification = input.timeToLiveSpecification
        let now = clock.now()
        _ = try updateDefinition(named: input.tableName) { definition, connection in
            if definition.ttlEnabled, let current = definition.ttlAttribute, current != specification.attributeName {
                throw EngineMessages.timeToLiveActiveDifferentAttributeNameCurrent(current: current)
            }
            if specification.enabled == definition.ttlEnabled {
                throw EngineMessages.timeToLiveAlreadyInState(enabled: specification.enabled)
            }
            if let last = definition.ttlChangedAt, now - last < Self.timeToLiveChangeInterval {
                throw EngineMessages.timeToLiveModifiedTooOften
            }
            definition.ttlEnabled = specification.enabled
            definition.ttlAttribute = specification.attributeName
            definition.ttlChangedAt = now
            try ExpiryIndex.rebuild(for: definition, connection: connection)
        }
        return UpdateTimeToLiveOutput(timeToLiveSpecification: specification)
    }

    /// A table's Time to Live status and attribute.
    package func describeTimeToLive(_ input: DescribeTimeToLiveInput) throws -> DescribeTimeToLiveOutput {
        let definition = try table(named: input.tableName)
        return DescribeTimeToLiveOutput(
            timeToLiveDescription: TimeToLiveDescription(
                timeToLiveStatus: definition.ttlEnabled ? .enabled : .disabled,
                attributeName: definition.ttlEnabled ? definition.ttlAttribute : nil))
    }
}

/// When an item has expired, as DynamoDB's TTL decides it.
enum TimeToLiveExpiry {
    /// DynamoDB ignores expiry times more than five years in the past.
    static let horizonSeconds: Double = 5 * 365 * 24 * 3600

    /// Whether an item whose TTL attribute holds `value` has expired at `now`: only a Number of
    /// epoch seconds at or before `now`, and not older than the five-year horizon.
    static func isExpired(_ value: AttributeValue?, now: Double) -> Bool {
        ExpiryIndex.expiry(of: value).map { isDue($0, now: now) } ?? false
    }

    /// Whether an item expiring at `seconds` is due at `now`.
    static func isDue(_ seconds: Double, now: Double) -> Bool {
        seconds <= now && seconds >= now - horizonSeconds
    }

    /// Whether the stored item `json` has expired under the attribute `name`.
    static func isExpired(json: [UInt8], attribute name: String, now: Double) throws -> Bool {
        try ExpiryIndex.expiry(json: json, attribute: name).map { isDue($0, now: now) } ?? false
    }
}
