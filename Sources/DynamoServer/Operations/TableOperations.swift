import DynamoAPI
import DynamoEngine
import NIOPosix

/// The control-plane operations: decode, run on the engine, encode the output shape.
enum TableOperations {
    static let createTable = EngineDispatcher.shaped { (input: CreateTableInput, context) in
        let definition = try context.database.createTable(input, now: context.now)
        let snapshot = TableSnapshot(
            definition: definition, status: .creating, itemCount: 0,
            sizeBytes: 0, region: context.database.region)
        return CreateTableOutput(tableDescription: snapshot.tableDescription)
    }

    /// On an event loop the table's statistics are read from memory only: the first DescribeTable
    /// of a table after its database was opened throws `StatisticsNotCounted` and is run again
    /// on the thread pool, where its rows are counted.
    static let describeTable = EngineDispatcher.shaped { (input: DescribeTableInput, context) in
        let snapshot = try naming(input.tableName) {
            try context.database.describeTable(
                named: input.tableName, countingStatistics: MultiThreadedEventLoopGroup.currentEventLoop == nil)
        }
        return DescribeTableOutput(table: snapshot.tableDescription)
    }

    static let deleteTable = EngineDispatcher.shaped { (input: DeleteTableInput, context) in
        let snapshot = try naming(input.tableName) { try context.database.deleteTable(named: input.tableName) }
        return DeleteTableOutput(tableDescription: snapshot.deletedTableDescription)
    }

    static let updateTable = EngineDispatcher.shaped { (input: UpdateTableInput, context) in
        let snapshot = try naming(input.tableName) { try context.database.updateTable(input, now: context.now) }
        return UpdateTableOutput(tableDescription: snapshot.tableDescription)
    }

    static let listTables = EngineDispatcher.shaped { (input: ListTablesInput, context) in
        let page = context.database.listTables(exclusiveStart: input.exclusiveStartTableName, limit: input.limit)
        return ListTablesOutput(tableNames: page.names, lastEvaluatedTableName: page.lastEvaluated)
    }

    /// The table a control-plane request names, or DynamoDB's not-found message naming it.
    static func requireTable(_ reference: String, in database: Database) throws -> TableDefinition {
        try naming(reference) { try database.table(named: reference) }
    }

    /// Runs `body`, giving a missing table the message control-plane calls use, which names it.
    static func naming<T>(_ reference: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DynamoError where error == DynamoError.tableNotFound() {
            throw ServerMessages.requestedResourceNotFoundTable(reference: reference)
        }
    }
}
