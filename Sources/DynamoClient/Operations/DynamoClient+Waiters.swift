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
        for attempt in 1...max(1, maximumAttempts) {
            do {
                let table = try await describeTable(DescribeTableInput(tableName: tableName)).table
                if let table, table.tableStatus == .active { return table }
            } catch let error as DynamoError where error.code == .resourceNotFound {
                // Not created yet: keep waiting.
            }
            if attempt < maximumAttempts { try await Task.sleep(for: delay) }
        }
        throw DynamoClientError.waiterTimedOut("table \(tableName) not ACTIVE after \(maximumAttempts) attempts")
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
        for attempt in 1...max(1, maximumAttempts) {
            do {
                _ = try await describeTable(DescribeTableInput(tableName: tableName))
            } catch let error as DynamoError where error.code == .resourceNotFound {
                return
            }
            if attempt < maximumAttempts { try await Task.sleep(for: delay) }
        }
        throw DynamoClientError.waiterTimedOut("table \(tableName) still exists after \(maximumAttempts) attempts")
    }
}
