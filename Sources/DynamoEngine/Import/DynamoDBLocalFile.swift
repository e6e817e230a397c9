import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One of DynamoDB Local's database files, opened read-only (the file is never changed).
///
/// DynamoDB Local keeps one SQLite file per namespace: `shared-local-instance.db` with
/// `-sharedDb`, otherwise `<AccessKeyId>_<Region>.db`. What this reader uses of its layout:
/// - `cf`: the format version in its first column (`v2.2.0`, `v2.4.0`, …).
/// - `dm`: one row per table — `TableName`, `CreationDateTime` (ms), `ReadCapacityUnits`,
///   `WriteCapacityUnits`, `TableInfo` (JSON, see ``DynamoDBLocalTableInfo``) and, in newer
///   versions, `BillingMode` (0 provisioned, 1 pay per request), `PayPerRequestDateTime` (ms),
///   `DeletionProtectionEnabled`, `MaxReadRequestUnits`, `MaxWriteRequestUnits`. Columns a
///   version lacks read as absent.
/// - one SQLite table per DynamoDB table, of the same name, whose `ObjectJSON` column holds each
///   item in DynamoDB's JSON.
/// - `sm`: stream specifications (`StreamID`, `StreamStatus`, `TableName`, `StreamInfo` JSON,
///   `CreationDateTime`, `DeletionDateTime`). The stream shards (`ss`), records (`us`) and
///   transaction tokens (`tr`) are not read: a migrated table starts a new stream.
package struct DynamoDBLocalFile {
    /// Where the file is.
    package let path: String
    private let connection: SQLiteConnection

    /// Opens `path` read-only.
    /// - Throws: `DynamoDBLocalImportError` when it is not a readable DynamoDB Local file.
    package init(path: String) throws {
        self.path = path
        do {
            connection = try SQLiteConnection(path: path, readOnly: true)
            guard try Self.tableNames(connection).isSuperset(of: ["cf", "dm"]) else {
                throw DynamoDBLocalImportError(path: path, reason: "it has no DynamoDB Local tables (cf, dm)")
            }
        } catch let error as DynamoDBLocalImportError {
            throw error
        } catch {
            throw DynamoDBLocalImportError(path: path, reason: "it cannot be read as SQLite (\(error))")
        }
    }

    /// What a SQLite file at `path` holds, without changing it: DynamoDB Local's tables, ours, or
    /// neither. Throws when it cannot be read as SQLite.
    package static func kind(of path: String) throws -> StoredFileKind {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        let names = try tableNames(connection)
        if names.contains("catalog") { return .localDynamo }
        if names.isSuperset(of: ["cf", "dm"]) { return .dynamoDBLocal }
        return .other
    }

    private static func tableNames(_ connection: SQLiteConnection) throws -> Set<String> {
        let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names = Set<String>()
        while try statement.step() { names.insert(statement.text(0)) }
        return names
    }

    /// The format version `cf` records (`"unknown"` when it holds none).
    package func version() throws -> String {
        let statement = try connection.statement("SELECT * FROM cf LIMIT 1")
        return try statement.step() && !statement.isNull(0) ? statement.text(0) : "unknown"
    }

    /// Every table the file declares, in name order.
    package func tables() throws -> [DynamoDBLocalTable] {
        let columns = try columnNames(of: "dm")
        func optional(_ name: String) -> String { columns.contains(name) ? "\"\(name)\"" : "NULL" }
        let sql = """
            SELECT TableName, CreationDateTime, ReadCapacityUnits, WriteCapacityUnits, TableInfo,
                   \(optional("BillingMode")), \(optional("PayPerRequestDateTime")),
                   \(optional("DeletionProtectionEnabled")), \(optional("MaxReadRequestUnits")),
                   \(optional("MaxWriteRequestUnits"))
            FROM dm ORDER BY TableName
            """
        let statement = try connection.statement(sql)
        let streams = try streamViewTypes()
        var tables: [DynamoDBLocalTable] = []
        while try statement.step() {
            let name = statement.text(0)
            func integer(_ column: Int32) -> Int64? { statement.isNull(column) ? nil : statement.int64(column) }
            let info: JSONValue
            do {
                info = try JSONValue(parsing: statement.blob(4))
            } catch {
                throw DynamoDBLocalImportError(path: path, reason: "table \(name) has a TableInfo that is not JSON (\(error))")
            }
            let row = DynamoDBLocalTable.Row(
                name: name, creationMilliseconds: integer(1) ?? 0,
                readCapacityUnits: integer(2) ?? 0, writeCapacityUnits: integer(3) ?? 0,
                billingMode: integer(5), payPerRequestMilliseconds: integer(6),
                deletionProtection: integer(7).map { $0 != 0 },
                maxReadRequestUnits: integer(8), maxWriteRequestUnits: integer(9),
                streamViewType: streams[name])
            tables.append(try DynamoDBLocalTable(row: row, info: info, file: path))
        }
        return tables
    }

    /// Calls `body` with the items of `table` in chunks of at most `chunkSize`.
    package func forEachItemChunk(of table: String, chunkSize: Int = 500, _ body: ([Item]) throws -> Void) throws {
        let quoted = "\"" + table.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        let statement = try connection.statement("SELECT ObjectJSON FROM \(quoted)")
        var chunk: [Item] = []
        while try statement.step() {
            do {
                chunk.append(try AttributeValue.decodeItem(bytes: statement.blob(0)))
            } catch {
                throw DynamoDBLocalImportError(path: path, reason: "an item of table \(table) cannot be read (\(error))")
            }
            if chunk.count == chunkSize {
                try body(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try body(chunk) }
    }

    private func columnNames(of table: String) throws -> Set<String> {
        let statement = try connection.statement("PRAGMA table_info(\"\(table)\")")
        var names = Set<String>()
        while try statement.step() { names.insert(statement.text(1)) }
        return names
    }

    /// The view type of each table's live stream (the newest enabled one in `sm`).
    private func streamViewTypes() throws -> [String: String] {
        guard try Self.tableNames(connection).contains("sm") else { return [:] }
        let statement = try connection.statement(
            """
            SELECT TableName, StreamInfo FROM sm
            WHERE StreamStatus IN ('ENABLED', 'ENABLING') AND (DeletionDateTime IS NULL OR DeletionDateTime = 0)
            ORDER BY CreationDateTime
            """)
        var types: [String: String] = [:]
        while try statement.step() {
            guard let info = try? JSONValue(parsing: statement.blob(1)),
                let viewType = DynamoDBLocalTableInfo.find("StreamViewType", in: info)?.stringValue
            else { continue }
            types[statement.text(0)] = viewType
        }
        return types
    }
}

/// What a SQLite file in a data directory holds.
package enum StoredFileKind: Sendable, Equatable {
    /// One of LocalDynamo's databases.
    case localDynamo
    /// One of DynamoDB Local's.
    case dynamoDBLocal
    /// Something else (left alone).
    case other
}

/// A DynamoDB Local file that cannot be migrated, and why.
package struct DynamoDBLocalImportError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String {
        "Cannot migrate DynamoDB Local's file \(path): \(reason). Nothing was migrated; the file is unchanged."
    }
}
