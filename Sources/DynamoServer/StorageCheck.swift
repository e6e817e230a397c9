import DynamoEngine
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `localdynamo check`: the storage invariants of every database file in a directory.
public enum StorageCheck {
    /// What the check found in one database file.
    public struct FileReport: Sendable {
        /// The file's name in the directory (`us-east-1.db`).
        public var file: String
        public var tables: Int
        public var items: Int
        public var indexEntries: Int
        /// Each broken invariant in words; empty when the file is sound.
        public var violations: [String]
    }

    /// Checks every `*.db` file in `directory` (see `Database.checkInvariants()`), opening each
    /// without resuming background work, so nothing is written but a pending schema upgrade.
    /// DynamoDB Local's own files (its data directory served in place) are not LocalDynamo's
    /// and are left unopened for writing.
    ///
    /// - Throws: when the directory cannot be listed or a file cannot be opened as a database.
    public static func run(directory: String) throws -> [FileReport] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".db") }.sorted()
            .filter { (try? DynamoDBLocalFile.kind(of: "\(directory)/\($0)")) != .dynamoDBLocal }
        return try files.map { file in
            let database = try Database(
                path: "\(directory)/\(file)", region: String(file.dropLast(3)),
                resumeBackgroundWork: false)
            let report = try database.checkInvariants()
            return FileReport(
                file: file, tables: report.tables, items: report.items,
                indexEntries: report.indexEntries, violations: report.violations.map(\.description))
        }
    }
}
