import DynamoAPI
import DynamoEngine

/// The control-plane operations: decode, run on the engine, render.
enum TableOperations {
    static let createTable: EngineDispatcher.Operation = { body, context in
        let input = try CreateTableInput.decodeRequest(body)
        let definition = try context.database.createTable(input, now: context.now)
        let snapshot = TableSnapshot(definition: definition, status: "CREATING", itemCount: 0, sizeBytes: 0,
                                     region: context.database.region)
        return describe(snapshot, member: "TableDescription")
    }

    static let describeTable: EngineDispatcher.Operation = { body, context in
        let input = try DescribeTableInput.decodeRequest(body)
        let snapshot = try naming(input.tableName) { try context.database.describeTable(named: input.tableName) }
        return describe(snapshot, member: "Table")
    }

    static let deleteTable: EngineDispatcher.Operation = { body, context in
        let input = try DeleteTableInput.decodeRequest(body)
        let snapshot = try naming(input.tableName) { try context.database.deleteTable(named: input.tableName) }
        var writer = JSONWriter(reservingCapacity: 512)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("TableDescription", first: true)
        TableDescriptionWriter.writeDeleted(snapshot, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }

    static let updateTable: EngineDispatcher.Operation = { body, context in
        let input = try UpdateTableInput.decodeRequest(body)
        let snapshot = try naming(input.tableName) { try context.database.updateTable(input, now: context.now) }
        return describe(snapshot, member: "TableDescription")
    }

    static let listTables: EngineDispatcher.Operation = { body, context in
        let input = try ListTablesInput.decodeRequest(body)
        let page = context.database.listTables(exclusiveStart: input.exclusiveStartTableName, limit: input.limit)
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("TableNames", first: true)
        TableDescriptionWriter.writeArray(page.names, to: &writer) { name, writer in writer.write(string: name) }
        if let last = page.lastEvaluated {
            writer.writeKey("LastEvaluatedTableName", first: false)
            writer.write(string: last)
        }
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
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
            throw DynamoError(.resourceNotFound, "Requested resource not found: Table: \(reference) not found")
        }
    }

    /// `{"<member>": <TableDescription>}`.
    static func describe(_ snapshot: TableSnapshot, member: String) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey(member, first: true)
        TableDescriptionWriter.write(snapshot, to: &writer)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
