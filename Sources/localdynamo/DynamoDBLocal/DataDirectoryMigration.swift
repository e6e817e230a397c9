import DynamoEngine
import DynamoServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging

/// The CLI's side of migrating DynamoDB Local's files: when it runs (before a server opens a
/// data directory, or on demand) and what it logs. The import itself is the engine's
/// (`DynamoDBLocalImport`).
enum DataDirectoryMigration {
    /// Migrates the DynamoDB Local files in `directory` not migrated yet, logging each file.
    /// - Parameter namespace: how the server about to start groups tables (to warn about files
    ///   it will not serve).
    /// - Throws: when a file cannot be read; nothing is migrated then.
    static func migrate(directory: String, namespace: LocalDynamoServer.Namespace, logger: Logger) throws {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        let reports = try DynamoDBLocalImport.run(source: directory, into: directory, skipMigrated: true)
        for report in reports {
            if let skipped = report.skipped {
                logger.debug("DynamoDB Local file \(report.source): \(skipped)")
                continue
            }
            logger.info("\(describe(report))")
            let served: LocalDynamoServer.Namespace = report.namespace == "shared-local-instance" ? .shared : .perAccessKey
            if served != namespace {
                logger.warning(
                    "the tables of \(report.source) are served when the server groups tables \(served == .shared ? "in one shared set (-sharedDb, --shared-db)" : "per access key and region (DynamoDB Local's default, --per-access-key)")"
                )
            }
        }
    }

    /// One line about one migrated file: its tables, their indexes and items.
    static func describe(_ report: DynamoDBLocalImport.FileReport) -> String {
        let tables = report.tables.map { "\($0.name) (\($0.indexes) indexes, \($0.items) items)" }
        return "migrated DynamoDB Local file \(report.source) (format \(report.version)) into namespace "
            + "\(report.namespace) (\(report.target)): \(report.tables.count) tables"
            + (tables.isEmpty ? "" : ": " + tables.joined(separator: ", "))
    }
}
