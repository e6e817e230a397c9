#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Migrates DynamoDB Local's files into LocalDynamo's storage: each file into the namespace
/// DynamoDB Local serves it from (`shared-local-instance.db` → the shared namespace,
/// `<AccessKeyId>_<Region>.db` → that access key and region), as ordinary CreateTable and item
/// writes into a fresh database.
///
/// All or nothing: every file is imported into a temporary database first; only when all of
/// them succeeded are they renamed into place. A file that cannot be read stops the migration
/// with a `DynamoDBLocalImportError` and leaves nothing behind. The original files are only ever
/// opened read-only.
///
/// Where a migrated namespace lives: LocalDynamo names a namespace's file `<namespace>.db`, the
/// name DynamoDB Local uses too. When that name is taken by DynamoDB Local's own file (its
/// `-dbPath` directory served in place), LocalDynamo's database is `<namespace>.localdynamo.db`
/// beside it (see ``DynamoEngine/databasePath(directory:namespace:)``); that file existing means
/// the namespace was migrated, so the next start does not migrate it again.
package enum DynamoDBLocalImport {
    /// What one file held and where it went.
    package struct FileReport: Sendable {
        package var source: String
        package var namespace: String
        package var target: String
        package var version: String
        /// Name, secondary index count and item count of each table.
        package var tables: [(name: String, indexes: Int, items: Int)]
        /// Why the file was left alone (`nil`: migrated).
        package var skipped: String?
    }

    /// The namespace DynamoDB Local serves a file from, by its name; `nil` for other names.
    package static func namespace(forFileNamed name: String) -> String? {
        guard name.hasSuffix(".db"), !name.hasSuffix(".localdynamo.db") else { return nil }
        let stem = String(name.dropLast(3))
        if stem == "shared-local-instance" { return stem }
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2,
            !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return stem
    }

    /// Migrates the DynamoDB Local files at `source` (one file, or every file in a directory)
    /// into the storage directory `directory`.
    ///
    /// - Parameter skipMigrated: leave a file alone when its namespace already has a database in
    ///   `directory` (the startup migration); otherwise (an import on demand) that is an error.
    /// - Returns: one report per DynamoDB Local file found.
    package static func run(source: String, into directory: String, skipMigrated: Bool) throws -> [FileReport] {
        let files = try candidateFiles(source)
        var reports: [FileReport] = []
        var pending: [(report: Int, file: DynamoDBLocalFile, temporary: String)] = []
        defer {
            for entry in pending { removeDatabaseFiles(entry.temporary) }
        }
        for (path, namespace) in files {
            let kind: StoredFileKind
            do {
                kind = try DynamoDBLocalFile.kind(of: path)
            } catch {
                throw DynamoDBLocalImportError(path: path, reason: "it cannot be read as SQLite (\(error))")
            }
            guard kind == .dynamoDBLocal else { continue }
            let file = try DynamoDBLocalFile(path: path)
            let target = DynamoEngine.databasePath(directory: directory, namespace: namespace)
            var report = FileReport(
                source: path, namespace: namespace, target: target,
                version: try file.version(), tables: [], skipped: nil)
            if FileManager.default.fileExists(atPath: target) {
                guard skipMigrated else {
                    throw DynamoDBLocalImportError(path: path, reason: "its namespace already has a database, \(target)")
                }
                report.skipped = "already migrated into \(target)"
                reports.append(report)
                continue
            }
            pending.append((reports.count, file, target + ".importing"))
            reports.append(report)
        }
        for entry in pending {
            removeDatabaseFiles(entry.temporary)
            reports[entry.report].tables = try importFile(
                entry.file, into: entry.temporary,
                namespace: reports[entry.report].namespace)
        }
        for entry in pending {
            try FileManager.default.moveItem(atPath: entry.temporary, toPath: reports[entry.report].target)
        }
        pending.removeAll()
        return reports
    }

    private static func importFile(
        _ file: DynamoDBLocalFile, into path: String,
        namespace: String
    ) throws -> [(name: String, indexes: Int, items: Int)] {
        let region = namespace.split(separator: "_").last.map(String.init) ?? "us-east-1"
        var imported: [(name: String, indexes: Int, items: Int)] = []
        do {
            let database = try Database(path: path, region: namespace == "shared-local-instance" ? "us-east-1" : region)
            for table in try file.tables() {
                imported.append((table.name, table.indexCount, try database.importTable(table, from: file)))
            }
            try database.checkpoint()
        } catch let error as DynamoDBLocalImportError {
            throw error
        } catch {
            throw DynamoDBLocalImportError(path: file.path, reason: "\(error)")
        }
        // The database is closed here, its write-ahead log checkpointed and emptied: the file
        // alone holds the import, ready to be renamed.
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        guard log == 0 else {
            throw DynamoDBLocalImportError(path: file.path, reason: "the imported database \(path) could not be checkpointed")
        }
        removeDatabaseFiles(path, keepingMain: true)
        return imported
    }

    /// `(path, namespace)` of every file at `source` named as DynamoDB Local names its files.
    private static func candidateFiles(_ source: String) throws -> [(String, String)] {
        guard FileManager.default.fileExists(atPath: source) else {
            throw DynamoDBLocalImportError(path: source, reason: "there is no such file or directory")
        }
        if !isDirectory(source) {
            let name = source.split(separator: "/").last.map(String.init) ?? source
            guard let namespace = namespace(forFileNamed: name) else {
                throw DynamoDBLocalImportError(
                    path: source, reason: "its name is not shared-local-instance.db or <AccessKeyId>_<Region>.db, so it names no namespace")
            }
            return [(source, namespace)]
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        return names.compactMap { name in namespace(forFileNamed: name).map { ("\(source)/\(name)", $0) } }
    }

    /// Whether `path` names a directory.
    package static func isDirectory(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeDirectory
    }

    private static func removeDatabaseFiles(_ path: String, keepingMain: Bool = false) {
        for suffix in keepingMain ? ["-wal", "-shm"] : ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
