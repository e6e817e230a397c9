import DynamoAPI

extension Database {
    /// The key under which a table's or index's insights are stored, after checking the index exists.
    private func insightsTarget(table reference: String, index: String?) throws -> (TableDefinition, String) {
        let definition = try table(named: reference)
        if let index, definition.index(named: index) == nil {
            throw EngineMessages.requestedResourceNotFoundIndex(indexName: index)
        }
        return (definition, index ?? "")
    }

    /// The status a stored setting shows at `now`: ENABLING/DISABLING for a moment after a change
    /// (on the server clock), then ENABLED/DISABLED; DISABLED when never enabled.
    static func insightsStatus(_ stored: StoredInsights?, now: Double) -> ContributorInsightsStatus {
        guard let stored else { return .disabled }
        let settled = Transition.settled(since: stored.changedAt, now: now)
        switch (stored.enabled, settled) {
        case (true, true): return .enabled
        case (true, false): return .enabling
        case (false, true): return .disabled
        case (false, false): return .disabling
        }
    }

    /// DescribeContributorInsights: the state of a table's or index's Contributor Insights, with
    /// the rule names CloudWatch would hold while it is on.
    package func describeContributorInsights(_ input: DescribeContributorInsightsInput) throws -> DescribeContributorInsightsOutput {
        let (definition, key) = try insightsTarget(table: input.tableName, index: input.indexName)
        let stored = definition.controlSettings.contributorInsights?[key]
        let status = Self.insightsStatus(stored, now: clock.now())
        var rules: [String]?
        if status == .enabled || status == .enabling, let stored {
            let kinds = (definition.sortKey == nil ? ["PKC", "PKT"] : ["PKC", "PKT", "SKC", "SKT"])
            let subject = input.indexName.map { "\(definition.name)-\($0)" } ?? definition.name
            rules = kinds.map { "DynamoDBContributorInsights-\($0)-\(subject)-\(Int64(stored.changedAt * 1000))" }
        }
        return DescribeContributorInsightsOutput(
            tableName: definition.name, indexName: input.indexName, contributorInsightsRuleList: rules,
            contributorInsightsStatus: status, lastUpdateDateTime: stored.map { Timestamp(secondsSince1970: $0.changedAt) },
            contributorInsightsMode: stored.map(\.mode))
    }

    /// UpdateContributorInsights: turns Contributor Insights on or off (state only: no CloudWatch
    /// rules exist here); the answer shows ENABLING or DISABLING.
    package func updateContributorInsights(_ input: UpdateContributorInsightsInput) throws -> UpdateContributorInsightsOutput {
        let (definition, key) = try insightsTarget(table: input.tableName, index: input.indexName)
        let enable = input.contributorInsightsAction == .enable
        let now = clock.now()
        let mode =
            input.contributorInsightsMode
            ?? definition.controlSettings.contributorInsights?[key]?.mode ?? .accessedAndThrottledKeys
        _ = try updateDefinition(named: definition.name) { definition in
            var settings = definition.controlSettings
            var insights = settings.contributorInsights ?? [:]
            insights[key] = StoredInsights(enabled: enable, mode: mode, changedAt: now)
            settings.contributorInsights = insights
            definition.controlSettings = settings
        }
        return UpdateContributorInsightsOutput(
            tableName: definition.name, indexName: input.indexName,
            contributorInsightsStatus: enable ? .enabling : .disabling,
            contributorInsightsMode: mode)
    }

    /// ListContributorInsights: every table and index of the namespace (or of one table) whose
    /// Contributor Insights were ever turned on, by table then index name, paged by `NextToken`.
    package func listContributorInsights(_ input: ListContributorInsightsInput) throws -> ListContributorInsightsOutput {
        let now = clock.now()
        var definitions = Array(tables.values)
        if let name = input.tableName { definitions = [try table(named: name)] }
        var summaries: [ContributorInsightsSummary] = []
        for definition in definitions.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let insights = definition.controlSettings.contributorInsights ?? [:]
            for key in insights.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                let stored = insights[key]
                summaries.append(
                    ContributorInsightsSummary(
                        tableName: definition.name, indexName: key.isEmpty ? nil : key,
                        contributorInsightsStatus: Self.insightsStatus(stored, now: now),
                        contributorInsightsMode: stored.map(\.mode)))
            }
        }
        let start: Int
        if let token = input.nextToken {
            guard let offset = Int(token), offset >= 0, offset <= summaries.count else {
                throw EngineMessages.invalidNextTokenEchoed(token: token)
            }
            start = offset
        } else {
            start = 0
        }
        let pageSize = input.maxResults ?? 100
        let end = min(summaries.count, start + pageSize)
        return ListContributorInsightsOutput(
            contributorInsightsSummaries: Array(summaries[start..<end]),
            nextToken: end < summaries.count ? String(end) : nil)
    }
}
