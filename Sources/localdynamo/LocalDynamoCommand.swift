import ArgumentParser

/// The `localdynamo` command: a DynamoDB-compatible server.
@main
struct LocalDynamoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localdynamo",
        abstract: "A DynamoDB-compatible server that stores its tables in SQLite.",
        version: LocalDynamoVersion.current,
        subcommands: [ServeCommand.self, StreamsCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// The release this binary reports with `--version`.
enum LocalDynamoVersion {
    static let current = "0.1.0"
}
