import ArgumentParser

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
        subcommands: [ServeCommand.self, CheckCommand.self, ImportDynamoDBLocalCommand.self, HealthCommand.self,
                      StreamsCommand.self, ImportCommand.self, ExportCommand.self, ResetCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if DynamoDBLocalOptions.isDynamoDBLocalCommandLine(arguments) {
            Self.exit(withError: ExitCode(await DynamoDBLocalLauncher.run(arguments)))
        }
        do {
            var command = try parseAsRoot(arguments)
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

/// The release this binary reports with `--version`.
enum LocalDynamoVersion {
    static let current = "0.1.0"
}
