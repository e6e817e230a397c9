import DynamoAPI
import DynamoEngine

/// The control-plane operations on tables.
extension OperationRows {
    static let createTable = OperationRow { (input: CreateTableInput, context) in
        let definition = try context.database.createTable(input, now: context.now)
        var snapshot = TableSnapshot(
            definition: definition, status: .creating, itemCount: 0,
            sizeBytes: 0, region: context.database.region)
        snapshot.describedAt = context.now
        return CreateTableOutput(
            tableDescription: snapshot.createdTableDescription(warmThroughputRequested: input.warmThroughput != nil))
    }

    /// From memory on the event loop, except the first time after the database was opened,
    /// when the table's rows are counted: then on the pool.
    static let describeTable = OperationRow(
        .decided { (input: DescribeTableInput, database) in database.describesFromMemory(input.tableName) ? .eventLoop : .pool }
    ) { input, context in
        let snapshot = try naming(input.tableName) { try context.database.describeTable(named: input.tableName) }
        return DescribeTableOutput(table: snapshot.tableDescription)
    }

    static let deleteTable = OperationRow { (input: DeleteTableInput, context) in
        let snapshot = try naming(input.tableName) { try context.database.deleteTable(named: input.tableName) }
        return DeleteTableOutput(tableDescription: snapshot.deletedTableDescription)
    }

    static let updateTable = OperationRow { (input: UpdateTableInput, context) in
        let snapshot = try naming(input.tableName) { try context.database.updateTable(input, now: context.now) }
        return UpdateTableOutput(tableDescription: snapshot.tableDescription)
    }

    static let listTables = OperationRow(.eventLoop) { (input: ListTablesInput, context) in
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
