import ArgumentParser
import DynamoClient
import DynamoServer
import Foundation
import Logging

/// Where `import`, `export` and `reset` work: a running server (through the DynamoDB API), or a
/// database directory opened by a server started inside this process for the command.
struct DataEndpointOptions: ParsableArguments {
    @Option(help: "A running server's URL (default http://127.0.0.1:8000 unless --db-path is given).")
    var endpoint: String?

    @Option(name: .customLong("db-path"), help: "Work on this database directory instead of a running server (stop the server that uses it first).")
    var dbPath: String?

    @Option(help: "The region (namespace) the tables live in.")
    var region = "us-east-1"

    @Option(name: .customLong("access-key"), help: "The access key id to sign with (the namespace under --per-access-key).")
    var accessKey = "localdynamo"

    @Flag(name: .customLong("shared-db"), help: "With --db-path: the database directory was served with --shared-db.")
    var sharedDB = false

    @Flag(name: .customLong("per-access-key"), help: "With --db-path: the database directory was served with --per-access-key.")
    var perAccessKey = false

    func validate() throws {
        if endpoint != nil && dbPath != nil { throw ValidationError("Give --endpoint or --db-path, not both.") }
        if sharedDB && perAccessKey { throw ValidationError("--shared-db and --per-access-key cannot be used together.") }
    }

    /// Runs `body` with a client for the chosen place; an in-process server for `--db-path` is
    /// shut down afterwards (also when `body` throws). `s3Directory` is that server's `--s3-dir`.
    func withClient<T>(s3Directory: String? = nil, _ body: (DynamoClient) async throws -> T) async throws -> T {
        guard let dbPath else {
            return try await body(client(endpoint: endpoint ?? "http://127.0.0.1:8000"))
        }
        var configuration = LocalDynamoServer.Configuration(
            host: "127.0.0.1", port: 0, dataDirectory: dbPath,
            namespace: sharedDB ? .shared : perAccessKey ? .perAccessKey : .perRegion, s3Directory: s3Directory)
        configuration.ttlSweepInterval = 0
        var logger = Logger(label: "localdynamo")
        logger.logLevel = .warning
        let server = try LocalDynamoServer(configuration: configuration, logger: logger)
        let port = try await server.start()
        do {
            let result = try await body(client(endpoint: "http://127.0.0.1:\(port)"))
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    private func client(endpoint: String) throws -> DynamoClient {
        try DynamoClient(
            configuration: .init(
                region: region, endpoint: endpoint,
                credentials: AWSCredentials(accessKeyID: accessKey, secretAccessKey: "localdynamo")))
    }
}
