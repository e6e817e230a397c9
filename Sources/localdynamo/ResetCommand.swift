import ArgumentParser
import DynamoAPI
import DynamoClient

/// `localdynamo reset`: deletes tables, then optionally seeds again.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Delete every table of a namespace (or the named ones), then optionally seed it again.",
        discussion: """
            Works through the DynamoDB API on a running server (--endpoint) or a database \
            directory (--db-path). For resets between tests, snapshots are faster: \
            POST /_localdynamo/snapshots and /_localdynamo/snapshots/NAME/restore (README).
            """)

    @Argument(help: "Tables to delete; every table of the namespace when none is named.")
    var tables: [String] = []

    @Option(help: ArgumentHelp("After deleting, create and load the tables described in DIR (as serve --seed).", valueName: "DIR"))
    var seed: String?

    @OptionGroup var target: DataEndpointOptions

    func run() async throws {
        let seeding = try seed.map { directory in
            let seeder = Seeder(directory: directory) { ServeCommand.writeToStandardError($0 + "\n") }
            return (seeder, try seeder.plan())
        }
        try await target.withClient { client in
            var names = tables
            if names.isEmpty {
                var start: String?
                repeat {
                    let page = try await client.send(ListTablesInput(exclusiveStartTableName: start))
                    names += page.tableNames ?? []
                    start = page.lastEvaluatedTableName
                } while start != nil
            }
            for name in names {
                _ = try await client.send(DeleteTableInput(tableName: name))
            }
            print("deleted \(names.count) tables" + (names.isEmpty ? "" : ": " + names.joined(separator: ", ")))
            if let (seeder, plans) = seeding {
                for line in try await seeder.run(plans, client: client) { print(line) }
            }
        }
    }
}
