import DynamoAPI
import DynamoEngine

/// Writes files laid out as DynamoDB Local's SQLite databases, for tests of the migration.
///
/// `package`, not `public`: this package's tests use it; the published `DynamoTestSupport`
/// product does not offer it.
///
/// The layout follows what DynamoDB Local stores (see `DynamoDBLocalFile` in the engine): `cf`
/// with the format version, `dm` with one row per table (`TableInfo` JSON with `Attributes`,
/// `LSIList`, `GSIList` / `GSIDescList`, `SQLiteIndex`, `TimeToLiveAttributeName`), one SQLite
/// table per DynamoDB table with each item's JSON in `ObjectJSON`, the stream tables `sm`,
/// `ss`, `us` and the transaction table `tr`.
///
/// ```swift
/// let table = DynamoDBLocalFileWriter.Table(name: "Music", hashKey: ("Artist", "S"))
/// try DynamoDBLocalFileWriter.write([table], version: .v2_4_0, to: "\(directory)/shared-local-instance.db")
/// ```
package enum DynamoDBLocalFileWriter {
    /// The format versions written.
    package enum FormatVersion: String, Sendable, CaseIterable {
        /// `dm` without the deletion-protection and on-demand columns; global indexes in the
        /// older `GSIList` only.
        case v2_2_0 = "v2.2.0"
        /// `dm` with `DeletionProtectionEnabled`, `MaxReadRequestUnits`, `MaxWriteRequestUnits`;
        /// global indexes in `GSIDescList` (with their status) and `GSIList`.
        case v2_4_0 = "v2.4.0"
    }

    /// A secondary index.
    package struct Index: Sendable {
        package var name: String
        package var hashKey: String
        package var rangeKey: String?
        /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
        package var projection: String
        package var nonKeyAttributes: [String]?
        /// Read and write capacity of a global index of a provisioned table.
        package var throughput: (read: Int, write: Int)?

        package init(
            name: String, hashKey: String, rangeKey: String? = nil, projection: String = "ALL",
            nonKeyAttributes: [String]? = nil, throughput: (read: Int, write: Int)? = nil
        ) {
            self.name = name
            self.hashKey = hashKey
            self.rangeKey = rangeKey
            self.projection = projection
            self.nonKeyAttributes = nonKeyAttributes
            self.throughput = throughput
        }
    }

    /// A table and its items.
    package struct Table: Sendable {
        package var name: String
        /// Every key attribute of the table and its indexes: name and type (`S`, `N`, `B`).
        package var attributes: [(name: String, type: String)]
        package var hashKey: String
        package var rangeKey: String?
        package var localIndexes: [Index] = []
        package var globalIndexes: [Index] = []
        /// `nil`: pay per request; otherwise provisioned read and write capacity.
        package var provisioned: (read: Int, write: Int)?
        package var deletionProtection = false
        package var streamViewType: String?
        package var ttlAttribute: String?
        package var maxRequestUnits: (read: Int, write: Int)?
        /// Milliseconds since 1970.
        package var creationMilliseconds: Int64 = 1_700_000_000_000
        package var items: [Item] = []

        package init(name: String, attributes: [(name: String, type: String)], hashKey: String, rangeKey: String? = nil) {
            self.name = name
            self.attributes = attributes
            self.hashKey = hashKey
            self.rangeKey = rangeKey
        }
    }

    /// Writes `tables` into a new file at `path` (replacing any file there).
    package static func write(_ tables: [Table], version: FormatVersion, to path: String) throws {
        let connection = try SQLiteConnection(path: path)
        let newer = version == .v2_4_0
        try connection.execute(
            """
            DROP TABLE IF EXISTS cf; DROP TABLE IF EXISTS dm;
            CREATE TABLE cf (version TEXT);
            CREATE TABLE dm (TableName TEXT, CreationDateTime INTEGER, LastDecreaseDate INTEGER,
                LastIncreaseDate INTEGER, NumberOfDecreasesToday INTEGER, ReadCapacityUnits INTEGER,
                WriteCapacityUnits INTEGER, TableInfo BLOB, BillingMode INTEGER DEFAULT 0,
                PayPerRequestDateTime INTEGER DEFAULT 0,
                \(newer ? "DeletionProtectionEnabled INTEGER DEFAULT 0, MaxReadRequestUnits INTEGER DEFAULT 0, MaxWriteRequestUnits INTEGER DEFAULT 0," : "")
                PRIMARY KEY(TableName));
            CREATE TABLE sm (StreamID TEXT, StreamStatus TEXT, TableName TEXT, StreamInfo BLOB,
                CreationDateTime INTEGER, DeletionDateTime INTEGER, PRIMARY KEY(StreamID));
            CREATE TABLE ss (StreamID TEXT, ShardID TEXT, CreationDateTime INTEGER, DeletionDateTime INTEGER,
                ParentShardID TEXT, PRIMARY KEY(ShardID));
            CREATE TABLE us (StreamID TEXT, ShardID TEXT, SequenceNumber INTEGER, CreationDateTime INTEGER,
                StreamRecord BLOB, OperationType TEXT, PRIMARY KEY(SequenceNumber));
            CREATE TABLE tr (TransactionId TEXT, TransactionHash TEXT, CreationDateTime INTEGER, PRIMARY KEY(TransactionId));
            """)
        try connection.statement("INSERT INTO cf VALUES (?)").bind(.text(version.rawValue)).run()
        for table in tables {
            try writeTable(table, version: version, connection: connection)
        }
    }

    private static func writeTable(_ table: Table, version: FormatVersion, connection: SQLiteConnection) throws {
        let newer = version == .v2_4_0
        let payPerRequest = table.provisioned == nil
        let info = tableInfo(table, version: version).serialized
        let columns =
            "TableName, CreationDateTime, ReadCapacityUnits, WriteCapacityUnits, TableInfo, BillingMode, PayPerRequestDateTime"
            + (newer ? ", DeletionProtectionEnabled, MaxReadRequestUnits, MaxWriteRequestUnits" : "")
        let statement = try connection.statement(
            "INSERT INTO dm (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?\(newer ? ", ?, ?, ?" : ""))")
        var values: [SQLiteValue] = [
            .text(table.name), .integer(table.creationMilliseconds),
            .integer(Int64(table.provisioned?.read ?? 0)), .integer(Int64(table.provisioned?.write ?? 0)),
            .blob(Array(info.utf8)), .integer(payPerRequest ? 1 : 0),
            .integer(payPerRequest ? table.creationMilliseconds : 0),
        ]
        if newer {
            values += [
                .integer(table.deletionProtection ? 1 : 0), .integer(Int64(table.maxRequestUnits?.read ?? 0)),
                .integer(Int64(table.maxRequestUnits?.write ?? 0)),
            ]
        }
        for (position, value) in values.enumerated() { statement.bind(value, at: Int32(position + 1)) }
        try statement.run()

        let quoted = "\"\(table.name)\""
        let indexColumns = (0..<(table.localIndexes.count + 2 * table.globalIndexes.count))
            .map { ", indexKey_\($0) TEXT DEFAULT NULL" }.joined()
        try connection.execute(
            """
            CREATE TABLE \(quoted) (hashKey TEXT DEFAULT NULL, rangeKey TEXT DEFAULT NULL, hashValue BLOB NOT NULL,
                rangeValue BLOB NOT NULL, itemSize INTEGER DEFAULT 0, ObjectJSON BLOB NOT NULL\(indexColumns),
                PRIMARY KEY(hashKey, rangeKey))
            """)
        let insert = "INSERT INTO \(quoted) (hashKey, rangeKey, hashValue, rangeValue, itemSize, ObjectJSON) VALUES (?, ?, ?, ?, ?, ?)"
        for item in table.items {
            var writer = JSONWriter()
            AttributeValue.encode(item: item, to: &writer)
            let hash = keyText(item[table.hashKey])
            let range = table.rangeKey.map { keyText(item[$0]) } ?? ""
            try connection.statement(insert).bind(
                .text(hash), .text(range), .blob(Array(hash.utf8)), .blob(Array(range.utf8)),
                .integer(Int64(ItemSize.of(item))), .blob(writer.bytes)
            ).run()
        }
        if let viewType = table.streamViewType {
            let streamInfo = JSONValue.object([
                "StreamViewType": .string(viewType), "TableName": .string(table.name),
                "StreamLabel": .string("2023-11-14T22:13:20.000"),
            ]).serialized
            try connection.statement("INSERT INTO sm VALUES (?, 'ENABLED', ?, ?, ?, NULL)")
                .bind(
                    .text("stream-\(table.name)"), .text(table.name), .blob(Array(streamInfo.utf8)),
                    .integer(table.creationMilliseconds)
                ).run()
        }
    }

    /// A key value as text (DynamoDB Local keeps an encoded copy; the migration reads `ObjectJSON`).
    private static func keyText(_ value: AttributeValue?) -> String {
        var writer = JSONWriter()
        if let value { AttributeValue.encode(item: ["k": value], to: &writer) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func tableInfo(_ table: Table, version: FormatVersion) -> JSONValue {
        func attribute(_ name: String) -> JSONValue {
            let type = table.attributes.first { $0.name == name }?.type ?? "S"
            return .object(["AttributeName": .string(name), "AttributeType": .string(type)])
        }
        func keySchema(_ hash: String, _ range: String?) -> JSONValue {
            .array(
                [.object(["AttributeName": .string(hash), "KeyType": .string("HASH")])]
                    + (range.map { [.object(["AttributeName": .string($0), "KeyType": .string("RANGE")])] } ?? []))
        }
        func sqliteKeys(_ hash: String, _ range: String?) -> JSONValue {
            .array(
                [.object(["DynamoDBAttribute": attribute(hash), "KeyType": .string("HASH"), "SQLiteColumnName": .string("hashKey")])]
                    + (range.map {
                        [.object(["DynamoDBAttribute": attribute($0), "KeyType": .string("RANGE"), "SQLiteColumnName": .string("rangeKey")])]
                    } ?? []))
        }
        func projection(_ index: Index) -> JSONValue {
            var members: [String: JSONValue] = ["ProjectionType": .string(index.projection)]
            if let names = index.nonKeyAttributes { members["NonKeyAttributes"] = .array(names.map(JSONValue.string)) }
            return .object(members)
        }
        func global(_ index: Index, described: Bool) -> JSONValue {
            var members: [String: JSONValue] = [
                "IndexName": .string(index.name), "KeySchema": keySchema(index.hashKey, index.rangeKey),
                "Projection": projection(index),
            ]
            if let throughput = index.throughput {
                members["ProvisionedThroughput"] = .object([
                    "ReadCapacityUnits": .number(String(throughput.read)), "WriteCapacityUnits": .number(String(throughput.write)),
                ])
            }
            if described {
                members["IndexStatus"] = .string("ACTIVE")
                members["Backfilling"] = .bool(false)
                members["IndexSizeBytes"] = .number("0")
                members["ItemCount"] = .number("0")
            }
            return .object(members)
        }
        var sqliteIndex: [String: JSONValue] = ["": sqliteKeys(table.hashKey, table.rangeKey)]
        for index in table.localIndexes + table.globalIndexes { sqliteIndex[index.name] = sqliteKeys(index.hashKey, index.rangeKey) }
        var info: [String: JSONValue] = [
            "Attributes": .array(table.attributes.map { attribute($0.name) }),
            "SQLiteIndex": .object(sqliteIndex),
            "UniqueIndexes": sqliteKeys(table.hashKey, table.rangeKey),
            "GSIList": .array(table.globalIndexes.map { global($0, described: false) }),
        ]
        if version == .v2_4_0 { info["GSIDescList"] = .array(table.globalIndexes.map { global($0, described: true) }) }
        if !table.localIndexes.isEmpty {
            info["LSIList"] = .array(
                table.localIndexes.map { index in
                    .object([
                        "IndexName": .string(index.name), "KeySchema": keySchema(index.hashKey, index.rangeKey),
                        "Projection": projection(index),
                    ])
                })
        }
        if let ttl = table.ttlAttribute { info["TimeToLiveAttributeName"] = .string(ttl) }
        return .object(info)
    }
}
