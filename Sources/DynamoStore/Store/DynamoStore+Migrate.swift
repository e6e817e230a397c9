import DynamoAPI
import DynamoClient

/// What ``DynamoStore/migrate(pollInterval:progress:)`` did.
public struct MigrationReport: Sendable, Hashable {
    /// Tables created (they did not exist).
    public var createdTables: [String] = []
    /// Global secondary indexes added to existing tables, as `table.index`.
    public var createdIndexes: [String] = []
    /// Vector indexes added to existing tables, as `table.index`.
    public var createdVectorIndexes: [String] = []

    /// An empty report (nothing created).
    public init(createdTables: [String] = [], createdIndexes: [String] = [], createdVectorIndexes: [String] = []) {
        self.createdTables = createdTables
        self.createdIndexes = createdIndexes
        self.createdVectorIndexes = createdVectorIndexes
    }
}

/// Differences between the model and the live tables that ``DynamoStore/migrate(pollInterval:progress:)``
/// cannot make good: a table's key schema, a missing local secondary index (DynamoDB creates
/// those only with the table), a vector index whose live definition differs from the model's
/// (DynamoDB cannot change one; delete it to have it created again). Nothing listed here was
/// changed.
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line per difference.
    public var problems: [String]

    /// Makes the error from its problems.
    public init(problems: [String]) {
        self.problems = problems
    }

    /// `cannot migrate: ` and the problems.
    public var description: String { "cannot migrate: " + problems.joined(separator: "; ") }
}

extension DynamoStore {
    /// Brings the live tables up to the model: creates missing tables (with their indexes and
    /// vector indexes) and adds missing global secondary indexes and vector indexes with
    /// `UpdateTable` (`GlobalSecondaryIndexUpdates`, `VectorIndexUpdates`), one at a time as
    /// DynamoDB requires, waiting for each backfill to finish (`IndexStatus` `ACTIVE`, a vector
    /// index no longer `Backfilling`). Key schemas that differ, missing local secondary indexes
    /// and vector indexes defined otherwise than the model says cannot be changed: they are
    /// reported together in a ``MigrationError`` before anything is changed.
    ///
    /// ```swift
    /// let report = try await store.migrate { print($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - pollInterval: the pause between `DescribeTable` polls (default 200 ms).
    ///   - progress: called with a line for each step.
    /// - Returns: what was created.
    /// - Throws: ``MigrationError``; DynamoDB's errors.
    @discardableResult
    public func migrate(pollInterval: Duration = .milliseconds(200), progress: (String) -> Void = { _ in }) async throws -> MigrationReport {
        var report = MigrationReport()
        var missingTables: [EntityDescription] = []
        var missingIndexes: [(EntityDescription, CreateTableInput, GlobalSecondaryIndex)] = []
        var missingVectorIndexes: [(EntityDescription, CreateTableInput, VectorIndex)] = []
        var problems: [String] = []
        for entity in model.entities {
            let wanted = try Self.createTableInput(for: entity, in: model)
            let live: TableDescription
            do {
                guard let table = try await client.describeTable(DescribeTableInput(tableName: entity.tableName)).table else { continue }
                live = table
            } catch let error as DynamoError where error.code == .resourceNotFound {
                missingTables.append(entity)
                continue
            }
            if live.keySchema != wanted.keySchema {
                problems.append("\(entity.tableName): key schema is \(Self.render(live.keySchema)), the model's is \(Self.render(wanted.keySchema))")
            }
            let liveGlobals = Set((live.globalSecondaryIndexes ?? []).compactMap(\.indexName))
            let liveLocals = Set((live.localSecondaryIndexes ?? []).compactMap(\.indexName))
            for index in wanted.localSecondaryIndexes ?? [] where !liveLocals.contains(index.indexName) {
                problems.append("\(entity.tableName): local index \(index.indexName) is missing; DynamoDB creates local indexes only with the table")
            }
            for index in wanted.globalSecondaryIndexes ?? [] where !liveGlobals.contains(index.indexName) {
                missingIndexes.append((entity, wanted, index))
            }
            for index in wanted.vectorIndexes ?? [] {
                guard let existing = live.vectorIndexes?.first(where: { $0.indexName == index.indexName }) else {
                    missingVectorIndexes.append((entity, wanted, index))
                    continue
                }
                if let difference = Self.difference(existing, index) {
                    problems.append("\(entity.tableName): vector index \(index.indexName) has \(difference); DynamoDB cannot change a vector index")
                }
            }
        }
        guard problems.isEmpty else { throw MigrationError(problems: problems) }
        for entity in missingTables {
            progress("creating table \(entity.tableName)")
            _ = try await client.createTable(try Self.createTableInput(for: entity, in: model))
            try await client.waitUntilTableExists(entity.tableName, delay: pollInterval, maximumAttempts: 300)
            report.createdTables.append(entity.tableName)
        }
        for (entity, wanted, index) in missingIndexes {
            progress("creating index \(entity.tableName).\(index.indexName); waiting for its backfill")
            let keyNames = Set(index.keySchema.map(\.attributeName))
            let create = CreateGlobalSecondaryIndexAction(indexName: index.indexName, keySchema: index.keySchema, projection: index.projection)
            _ = try await client.updateTable(
                UpdateTableInput(
                    attributeDefinitions: (wanted.attributeDefinitions ?? []).filter { keyNames.contains($0.attributeName) },
                    tableName: entity.tableName, globalSecondaryIndexUpdates: [GlobalSecondaryIndexUpdate(create: create)]))
            try await waitForIndex(index.indexName, of: entity.tableName, pollInterval: pollInterval)
            report.createdIndexes.append("\(entity.tableName).\(index.indexName)")
            progress("index \(entity.tableName).\(index.indexName) is active")
        }
        for (entity, wanted, index) in missingVectorIndexes {
            progress("creating vector index \(entity.tableName).\(index.indexName); waiting for its backfill")
            let schemaNames = Set((index.searchSchema ?? []).map(\.attributeName))
            let create = CreateVectorIndexAction(
                indexName: index.indexName, vectorAttribute: index.vectorAttribute, searchSchema: index.searchSchema,
                projection: index.projection, dimensions: index.dimensions, distanceFunction: index.distanceFunction)
            let definitions = (wanted.attributeDefinitions ?? []).filter { schemaNames.contains($0.attributeName) }
            _ = try await client.updateTable(
                UpdateTableInput(
                    attributeDefinitions: definitions.isEmpty ? nil : definitions, tableName: entity.tableName,
                    vectorIndexUpdates: [VectorIndexUpdate(create: create)]))
            try await waitForVectorIndex(index.indexName, of: entity.tableName, pollInterval: pollInterval)
            report.createdVectorIndexes.append("\(entity.tableName).\(index.indexName)")
            progress("vector index \(entity.tableName).\(index.indexName) is active")
        }
        for entity in model.entities { try await enableTimeToLive(entity) }
        return report
    }

    /// Waits until a vector index is `ACTIVE` and no longer backfilling, and its table `ACTIVE`
    /// (the next `UpdateTable` may then add another index).
    private func waitForVectorIndex(_ name: String, of table: String, pollInterval: Duration) async throws {
        try await waitUntilActive(table, pollInterval: pollInterval) { live in
            let index = live.vectorIndexes?.first { $0.indexName == name }
            return index?.indexStatus == .active && index?.backfilling != true
        }
    }

    /// Polls DescribeTable until the table is `ACTIVE` and `indexIsReady` says so of it.
    private func waitUntilActive(
        _ table: String, pollInterval: Duration, indexIsReady: (TableDescription) -> Bool
    ) async throws {
        while true {
            if let live = try await client.describeTable(DescribeTableInput(tableName: table)).table,
                live.tableStatus == .active, indexIsReady(live)
            {
                return
            }
            try await Task.sleep(for: pollInterval)
        }
    }

    /// How a live vector index differs from the model's (`nil`: it does not).
    private static func difference(_ live: VectorIndexDescription, _ wanted: VectorIndex) -> String? {
        if live.vectorAttribute?.attributeName != wanted.vectorAttribute.attributeName {
            return "attribute \(live.vectorAttribute?.attributeName ?? "?"), the model's is \(wanted.vectorAttribute.attributeName)"
        }
        if live.dimensions != wanted.dimensions { return "\(live.dimensions ?? 0) dimensions, the model's \(wanted.dimensions)" }
        if live.distanceFunction != wanted.distanceFunction {
            return "distance \(live.distanceFunction?.rawValue ?? "?"), the model's \(wanted.distanceFunction.rawValue)"
        }
        let schema = { (elements: [SearchSchemaElement]?) in
            (elements ?? []).map { "\($0.attributeName) \($0.searchSchemaElementType.rawValue)" }.sorted().joined(separator: ", ")
        }
        if schema(live.searchSchema) != schema(wanted.searchSchema) {
            return "search schema [\(schema(live.searchSchema))], the model's [\(schema(wanted.searchSchema))]"
        }
        return nil
    }

    private func waitForIndex(_ name: String, of table: String, pollInterval: Duration) async throws {
        try await waitUntilActive(table, pollInterval: pollInterval) { live in
            live.globalSecondaryIndexes?.first { $0.indexName == name }?.indexStatus == .active
        }
    }

    private static func render(_ schema: [KeySchemaElement]?) -> String {
        (schema ?? []).map { "\($0.attributeName) \($0.keyType.rawValue)" }.joined(separator: ", ")
    }
}
