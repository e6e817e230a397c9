import DynamoAPI
@testable import DynamoEngine
import DynamoTestSupport
import Foundation
import Logging
import Testing

/// DynamoDB Local's files, written by `DynamoDBLocalFileWriter` in each format version, migrated
/// and checked table by table and item by item.
@Suite("DynamoDB Local import")
struct DynamoDBLocalImportTests {
    static func number(_ random: inout SplitMix64) -> DynamoNumber {
        let texts = ["0", "-1", "3.14159", "1E+125", "-1E-130", "12345678901234567890123456789012345678", "0.000001", "42"]
        if Bool.random(using: &random) { return try! DynamoNumber(parsing: texts.randomElement(using: &random)!) }
        return DynamoNumber(Int.random(in: -1_000_000...1_000_000, using: &random))
    }

    static func bytes(_ random: inout SplitMix64) -> [UInt8] {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func string(_ random: inout SplitMix64) -> String {
        ["a", "ß", "日本", "emoji 🎉", "with \"quotes\" and \\ slash", "line\nbreak", "x"].randomElement(using: &random)!
            + String(Int.random(in: 0...999, using: &random))
    }

    /// A value of any of the ten types, nested up to `depth`.
    static func value(_ random: inout SplitMix64, depth: Int = 2) -> AttributeValue {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 8), using: &random) {
        case 0: return .s(string(&random))
        case 1: return .n(number(&random))
        case 2: return .b(bytes(&random))
        case 3: return .ss(Array(Set((0..<3).map { _ in string(&random) })).sorted())
        case 4: return .ns((0..<3).map { DynamoNumber($0 * 100 + Int.random(in: 1...99, using: &random)) })
        case 5: return .bs([[1, 2], [0], [0xFF] + bytes(&random)])
        case 6: return .null
        case 7: return .bool(Bool.random(using: &random))
        case 8: return .m(["inner": value(&random, depth: depth - 1), "n": .n(number(&random))])
        default: return .l((0..<3).map { _ in value(&random, depth: depth - 1) })
        }
    }

    /// The table with every feature: a sort key, a local and a global index, provisioned
    /// throughput, a stream, TTL, deletion protection (where the format has it).
    static func ordersTable(version: DynamoDBLocalFileWriter.FormatVersion, seed: UInt64) -> DynamoDBLocalFileWriter.Table {
        var table = DynamoDBLocalFileWriter.Table(
            name: "Orders", attributes: [("pk", "S"), ("sk", "N"), ("placed", "S"), ("sku", "B")],
            hashKey: "pk", rangeKey: "sk")
        table.localIndexes = [.init(name: "ByPlaced", hashKey: "pk", rangeKey: "placed", projection: "KEYS_ONLY")]
        table.globalIndexes = [
            .init(
                name: "BySku", hashKey: "sku", rangeKey: "sk", projection: "INCLUDE",
                nonKeyAttributes: ["note"], throughput: (3, 4))
        ]
        table.provisioned = (5, 7)
        table.streamViewType = "NEW_AND_OLD_IMAGES"
        table.ttlAttribute = "expires"
        table.deletionProtection = version == .v2_4_0
        var random = SplitMix64(seed: seed)
        for number in 0..<60 {
            var item: Item = ["pk": .s("customer-\(number % 7)"), "sk": .n(DynamoNumber(number))]
            if number % 2 == 0 { item["placed"] = .s("2024-01-\(number)") }
            if number % 3 == 0 { item["sku"] = .b(bytes(&random)) }
            for index in 0..<Int.random(in: 1...6, using: &random) { item["a\(index)"] = value(&random) }
            item["note"] = .s(string(&random))
            tableItems(&item, number: number)
            table.items.append(item)
        }
        return table
    }

    /// One item of each attribute type at the top level, so every type is covered whatever the seed.
    static func tableItems(_ item: inout Item, number: Int) {
        guard number == 0 else { return }
        item["s"] = .s("text")
        item["n"] = .n(try! DynamoNumber(parsing: "-0.000123456789012345678901234567890123"))
        item["b"] = .b([0, 255, 128])
        item["ss"] = .ss(["x", "y"])
        item["ns"] = .ns([DynamoNumber(1), try! DynamoNumber(parsing: "2.5")])
        item["bs"] = .bs([[1], [2, 3]])
        item["m"] = .m(["deep": .m(["l": .l([.null, .bool(true), .s("")])])])
        item["l"] = .l([.n(DynamoNumber(1)), .b([9])])
        item["null"] = .null
        item["bool"] = .bool(false)
    }

    /// A pay-per-request table keyed by binary, with a keys-only global index on a number.
    static func eventsTable(version: DynamoDBLocalFileWriter.FormatVersion) -> DynamoDBLocalFileWriter.Table {
        var table = DynamoDBLocalFileWriter.Table(name: "events.v1", attributes: [("id", "B"), ("score", "N")], hashKey: "id")
        table.globalIndexes = [.init(name: "ByScore", hashKey: "score", projection: "KEYS_ONLY")]
        if version == .v2_4_0 { table.maxRequestUnits = (100, 50) }
        table.creationMilliseconds = 1_600_000_000_123
        table.items = (0..<20).map { ["id": .b([UInt8($0), 7]), "score": .n(DynamoNumber($0 % 4)), "v": .s("\($0)")] }
        return table
    }

    static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ddblocal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    static func item(_ table: String, key: Item, in database: Database) throws -> Item? {
        let found = try database.getItem(GetItemInput(tableName: table, key: key, consistentRead: true))
        return try found.json.map { try AttributeValue.decodeItem(JSONValue(parsing: $0)) }
    }

    /// Every table, index, setting and item of `tables` is in `database`.
    static func expectMigrated(
        _ tables: [DynamoDBLocalFileWriter.Table], in database: Database,
        version: DynamoDBLocalFileWriter.FormatVersion
    ) throws {
        #expect(database.tables.keys.sorted() == tables.map(\.name).sorted())
        let invariants = try database.checkInvariants()
        #expect(invariants.violations.isEmpty)
        #expect(invariants.items == tables.map(\.items.count).reduce(0, +))
        for table in tables {
            let snapshot = try database.describeTable(named: table.name)
            let definition = snapshot.definition
            #expect(snapshot.status == .active)
            #expect(definition.partitionKey.name == table.hashKey)
            #expect(definition.sortKey?.name == table.rangeKey)
            #expect(definition.creationDateTime == Double(table.creationMilliseconds) / 1000)
            #expect(definition.localIndexes.map(\.name) == table.localIndexes.map(\.name))
            #expect(definition.globalIndexes.map(\.name) == table.globalIndexes.map(\.name))
            for (index, expected) in zip(definition.indexes, table.localIndexes + table.globalIndexes) {
                #expect(index.partitionKey.name == expected.hashKey)
                #expect(index.sortKey?.name == expected.rangeKey)
                #expect(index.projectionType.rawValue == expected.projection)
                #expect(index.nonKeyAttributes == expected.nonKeyAttributes)
                #expect(index.status == .active)
                let keys = [expected.hashKey] + (expected.rangeKey.map { [$0] } ?? [])
                let indexed = table.items.filter { item in keys.allSatisfy { item[$0] != nil } }.count
                #expect(snapshot.indexStatistics[expected.name]?.itemCount == Int64(indexed))
                if let throughput = expected.throughput, table.provisioned != nil {
                    #expect(index.throughput?.readCapacityUnits == throughput.read)
                    #expect(index.throughput?.writeCapacityUnits == throughput.write)
                }
            }
            #expect(definition.billingMode == (table.provisioned == nil ? .payPerRequest : .provisioned))
            #expect(definition.throughput.readCapacityUnits == table.provisioned?.read ?? 0)
            #expect(definition.throughput.writeCapacityUnits == table.provisioned?.write ?? 0)
            #expect(definition.deletionProtectionEnabled == table.deletionProtection)
            #expect(definition.streamViewType?.rawValue == table.streamViewType)
            #expect(definition.ttlAttribute == table.ttlAttribute)
            #expect(definition.ttlEnabled == (table.ttlAttribute != nil))
            #expect(definition.onDemandMaxRead == table.maxRequestUnits?.read)
            #expect(definition.onDemandMaxWrite == table.maxRequestUnits?.write)
            #expect(snapshot.itemCount == Int64(table.items.count))
            for expected in table.items {
                var key: Item = [table.hashKey: expected[table.hashKey]!]
                if let range = table.rangeKey { key[range] = expected[range]! }
                #expect(try item(table.name, key: key, in: database) == expected)
            }
        }
    }

    @Test(
        "a shared-local-instance.db of each format version is migrated in place, the original untouched",
        arguments: DynamoDBLocalFileWriter.FormatVersion.allCases)
    func sharedFileInPlace(version: DynamoDBLocalFileWriter.FormatVersion) throws {
        try Self.withDirectory { directory in
            let tables = [Self.ordersTable(version: version, seed: 26), Self.eventsTable(version: version)]
            let source = "\(directory)/shared-local-instance.db"
            try DynamoDBLocalFileWriter.write(tables, version: version, to: source)
            let original = try Data(contentsOf: URL(fileURLWithPath: source))

            let reports = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            #expect(reports.count == 1)
            #expect(reports.first?.version == version.rawValue)
            #expect(reports.first?.namespace == "shared-local-instance")
            #expect(reports.first?.target == "\(directory)/shared-local-instance.localdynamo.db")
            #expect(Dictionary(uniqueKeysWithValues: reports[0].tables.map { ($0.name, $0.items) }) == ["Orders": 60, "events.v1": 20])
            #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == original)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("importing") }
            #expect(leftovers.isEmpty)

            let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .shared, logger: Logger(label: "test"))
            try Self.expectMigrated(tables, in: engine.database(accessKeyID: "any", region: "eu-west-1"), version: version)
            engine.close()

            // The next start finds it migrated and leaves both files alone.
            let again = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            #expect(again.first?.skipped != nil)
            #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == original)
        }
    }

    @Test("randomized items of every type survive the migration (seeded)", arguments: [1, 2, 3] as [UInt64])
    func randomizedItems(seed: UInt64) throws {
        try Self.withDirectory { directory in
            let tables = [Self.ordersTable(version: .v2_4_0, seed: seed)]
            try DynamoDBLocalFileWriter.write(tables, version: .v2_4_0, to: "\(directory)/shared-local-instance.db")
            _ = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .shared, logger: Logger(label: "test"))
            try Self.expectMigrated(tables, in: engine.database(accessKeyID: nil, region: nil), version: .v2_4_0)
        }
    }

    @Test("an <AccessKeyId>_<Region>.db file becomes that access key's namespace")
    func perAccessKeyFile() throws {
        try Self.withDirectory { directory in
            let tables = [Self.eventsTable(version: .v2_2_0)]
            try DynamoDBLocalFileWriter.write(tables, version: .v2_2_0, to: "\(directory)/AKIDEXAMPLE_eu-west-1.db")
            let reports = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            #expect(reports.map(\.namespace) == ["AKIDEXAMPLE_eu-west-1"])
            let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .perAccessKey, logger: Logger(label: "test"))
            try Self.expectMigrated(tables, in: engine.database(accessKeyID: "AKIDEXAMPLE", region: "eu-west-1"), version: .v2_2_0)
            #expect(try engine.database(accessKeyID: "other", region: "eu-west-1").tables.isEmpty)
        }
    }

    @Test("an unreadable file stops the migration before anything is written")
    func unreadableFile() throws {
        try Self.withDirectory { directory in
            try DynamoDBLocalFileWriter.write(
                [Self.eventsTable(version: .v2_4_0)], version: .v2_4_0,
                to: "\(directory)/AKID_us-east-1.db")
            try Data("this is not a database".utf8).write(to: URL(fileURLWithPath: "\(directory)/shared-local-instance.db"))
            #expect(throws: DynamoDBLocalImportError.self) {
                try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(names == ["AKID_us-east-1.db", "shared-local-instance.db"])
        }
    }

    @Test("a table whose definition cannot be read stops the migration, naming the file and table")
    func brokenTableInfo() throws {
        try Self.withDirectory { directory in
            let path = "\(directory)/shared-local-instance.db"
            try DynamoDBLocalFileWriter.write([Self.eventsTable(version: .v2_4_0)], version: .v2_4_0, to: path)
            try SQLiteConnection(path: path).execute("UPDATE dm SET TableInfo = '{not json'")
            do {
                _ = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
                Issue.record("expected the migration to fail")
            } catch let error as DynamoDBLocalImportError {
                #expect(error.path == path)
                #expect(error.description.contains("events.v1"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["shared-local-instance.db"])
        }
    }

    @Test("an import on demand into another directory refuses a namespace that already has a database")
    func onDemandImport() throws {
        try Self.withDirectory { directory in
            let source = "\(directory)/shared-local-instance.db"
            try DynamoDBLocalFileWriter.write([Self.eventsTable(version: .v2_4_0)], version: .v2_4_0, to: source)
            let target = "\(directory)/store"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let reports = try DynamoDBLocalImport.run(source: source, into: target, skipMigrated: false)
            #expect(reports.map(\.target) == ["\(target)/shared-local-instance.db"])
            #expect(throws: DynamoDBLocalImportError.self) {
                try DynamoDBLocalImport.run(source: source, into: target, skipMigrated: false)
            }
            #expect(DynamoDBLocalImport.namespace(forFileNamed: "notes.db") == nil)
            #expect(DynamoDBLocalImport.namespace(forFileNamed: "us-east-1.db") == nil)
            #expect(DynamoDBLocalImport.namespace(forFileNamed: "AKID_us-east-1.localdynamo.db") == nil)
        }
    }

    @Test("compaction leaves the tables and items as they were")
    func compaction() throws {
        try Self.withDirectory { directory in
            let tables = [Self.eventsTable(version: .v2_4_0)]
            try DynamoDBLocalFileWriter.write(tables, version: .v2_4_0, to: "\(directory)/shared-local-instance.db")
            _ = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
            #expect(try DynamoEngine.compactDatabases(in: directory) == ["\(directory)/shared-local-instance.localdynamo.db"])
            let engine = try DynamoEngine(storage: .directory(directory), namespaceMode: .shared, logger: Logger(label: "test"))
            try Self.expectMigrated(tables, in: engine.database(accessKeyID: nil, region: nil), version: .v2_4_0)
        }
    }
}
