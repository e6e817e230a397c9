import ArgumentParser
import DynamoEngine
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `localdynamo import-dynamodb-local PATH`: migrates DynamoDB Local's files now.
struct ImportDynamoDBLocalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-dynamodb-local",
        abstract: "Migrate DynamoDB Local's data files into LocalDynamo's storage.",
        discussion: """
            PATH is one of DynamoDB Local's files (shared-local-instance.db or \
            <AccessKeyId>_<Region>.db) or a directory of them (its -dbPath). Each file becomes the \
            namespace DynamoDB Local served it from: shared-local-instance.db the shared set of \
            tables (serve --shared-db), <AccessKeyId>_<Region>.db that access key and region \
            (serve --per-access-key). The files are only read. All or nothing: a file that cannot \
            be read, or a namespace that already has a database in --db-path, stops the import \
            before anything is written. serve and DynamoDB Local's command line do the same on \
            their own at startup for the DynamoDB Local files in their data directory.
            """
    )

    @Argument(help: "A DynamoDB Local file, or a directory of them.")
    var path: String

    @Option(name: .customLong("db-path"), help: "LocalDynamo's data directory to import into (created if missing).")
    var dbPath = ".localdynamo"

    func run() throws {
        try FileManager.default.createDirectory(atPath: dbPath, withIntermediateDirectories: true)
        let reports = try DynamoDBLocalImport.run(source: path, into: dbPath, skipMigrated: false)
        for report in reports {
            print(DataDirectoryMigration.describe(report))
        }
        if reports.isEmpty { print("no DynamoDB Local files found at \(path)") }
    }
}
