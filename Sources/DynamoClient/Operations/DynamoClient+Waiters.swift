import DynamoAPI

extension DynamoClient {
    /// Polls `DescribeTable` until the table is `ACTIVE` (botocore's `table_exists` waiter:
    /// every 20 s, at most 25 times; `ResourceNotFoundException` means "not yet").
    ///
    /// ```swift
    /// _ = try await client.createTable(input)
    /// let table = try await client.waitUntilTableExists("Notes", delay: .seconds(1))
    /// ```
    ///
    /// - Parameters:
    ///   - tableName: The table.
    ///   - delay: The pause between polls (default 20 s).
    ///   - maximumAttempts: The most polls (default 25).
    /// - Returns: The table's description once active.
    /// - Throws: ``DynamoClientError/waiterTimedOut(_:)`` after the last poll; any other error
    ///   `DescribeTable` throws.
    @discardableResult
    public func waitUntilTableExists(
        _ tableName: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws -> TableDescription {
        try await poll("table \(tableName) not ACTIVE", delay: delay, maximumAttempts: maximumAttempts) {
            do {
                let table = try await describeTable(DescribeTableInput(tableName: tableName)).table
                if let table, table.tableStatus == .active { return .done(table) }
            } catch let error as DynamoError where error.code == .resourceNotFound {
                // Not created yet: keep waiting.
            }
            return .pending
        }
    }

    /// Polls `DescribeTable` until it reports `ResourceNotFoundException` (botocore's
    /// `table_not_exists` waiter: every 20 s, at most 25 times).
    ///
    /// - Parameters:
    ///   - tableName: The table.
    ///   - delay: The pause between polls (default 20 s).
    ///   - maximumAttempts: The most polls (default 25).
    /// - Throws: ``DynamoClientError/waiterTimedOut(_:)`` after the last poll; any other error
    ///   `DescribeTable` throws.
    public func waitUntilTableNotExists(
        _ tableName: String, delay: Duration = .seconds(20), maximumAttempts: Int = 25
    ) async throws {
        try await poll("table \(tableName) still exists", delay: delay, maximumAttempts: maximumAttempts) { () async throws -> PollOutcome<Void> in
            do {
                _ = try await describeTable(DescribeTableInput(tableName: tableName))
                return .pending
            } catch let error as DynamoError where error.code == .resourceNotFound {
                return .done(())
            }
        }
    }
}
