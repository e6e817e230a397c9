import DynamoClient
import DynamoServer

/// The `serve --seed DIR` step: files are checked before the server listens, tables created
/// right after it binds (through the DynamoDB API, as a client signing for `region` sees them)
/// and before the startup line is printed, so a test harness that waits for that line sees the
/// seeded tables.
struct ServeSeeding {
    let seeder: Seeder
    let plans: [Seeder.Plan]

    /// Reads and checks the directory's files.
    /// - Throws: ``ItemFileError`` naming the file and line of the first problem.
    init(directory: String) throws {
        seeder = Seeder(directory: directory) { ServeCommand.writeToStandardError($0 + "\n") }
        plans = try seeder.plan()
    }

    /// Creates and loads the tables on the started server.
    func run(port: Int, region: String) async throws {
        let client = try DynamoClient(
            configuration: .init(
                region: region, endpoint: "http://127.0.0.1:\(port)",
                credentials: AWSCredentials(accessKeyID: "localdynamo", secretAccessKey: "localdynamo")))
        for line in try await seeder.run(plans, client: client) {
            ServeCommand.writeToStandardError(line + "\n")
        }
    }
}
