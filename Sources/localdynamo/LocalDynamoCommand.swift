import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `localdynamo` command: a DynamoDB-compatible server.
///
/// Started with DynamoDB Local's command line (`-jar DynamoDBLocal.jar -sharedDb …`, see
/// `DynamoDBLocalOptions`) it behaves as DynamoDB Local; otherwise it is an ordinary
/// argument-parser command whose default subcommand is `serve`.
@main
struct LocalDynamoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localdynamo",
        abstract: "A DynamoDB-compatible server that stores its tables in SQLite.",
        discussion: """
            Also accepts DynamoDB Local's command line as a drop-in replacement: \
            localdynamo -jar DynamoDBLocal.jar -sharedDb -dbPath ./data (see localdynamo -help).
            """,
        version: LocalDynamoVersion.current,
        subcommands: [
            ServeCommand.self, CheckCommand.self, ImportDynamoDBLocalCommand.self, HealthCommand.self,
            StreamsCommand.self, ImportCommand.self, ExportCommand.self, BulkPutCommand.self, ResetCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if DynamoDBLocalOptions.isDynamoDBLocalCommandLine(arguments) {
            Self.exit(withError: ExitCode(await DynamoDBLocalLauncher.run(arguments)))
        }
        do {
            var command = try parseAsRoot(try withServeEnvironment(arguments))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

extension LocalDynamoCommand {
    /// The arguments with `LOCALDYNAMO_*` settings added when they run `serve` (named, or the
    /// default subcommand).
    static func withServeEnvironment(_ arguments: [String]) throws -> [String] {
        let others = configuration.subcommands.filter { $0 != ServeCommand.self }.map { $0._commandName }
        if let first = arguments.first, others.contains(first) || first == "help" { return arguments }
        let environment = ProcessInfo.processInfo.environment
        guard environment.keys.contains(where: { $0.hasPrefix("LOCALDYNAMO_") }) else { return arguments }
        if arguments.first == "serve" {
            return ["serve"] + (try ServeEnvironment.apply(to: Array(arguments.dropFirst()), environment: environment))
        }
        return try ServeEnvironment.apply(to: arguments, environment: environment)
    }
}

/// The release this binary reports with `--version`.
enum LocalDynamoVersion {
    static let current = "0.1.0"
}
