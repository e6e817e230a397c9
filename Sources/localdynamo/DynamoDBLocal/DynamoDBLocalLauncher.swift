import DynamoEngine
import DynamoServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `localdynamo` started with DynamoDB Local's command line (see ``DynamoDBLocalOptions``):
/// DynamoDB Local's defaults (every interface, port 8000, the current directory, one database
/// per access key id and region unless `-sharedDb`), its banner on standard output once the port
/// is bound, then serving until SIGINT or SIGTERM.
enum DynamoDBLocalLauncher {
    /// Parses `arguments` and runs what they ask for; returns the process's exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let request = DynamoDBLocalOptions.parse(arguments, isDirectory: DynamoDBLocalImport.isDirectory)
        switch request {
        case .help:
            ServeCommand.writeToStandardOutput(DynamoDBLocalOptions.usage)
            return 0
        case .version:
            ServeCommand.writeToStandardOutput(LocalDynamoVersion.current + "\n")
            return 0
        case .failure(let message, let showUsage):
            writeToStandardError(message + "\n")
            if showUsage { ServeCommand.writeToStandardOutput(DynamoDBLocalOptions.usage) }
            return 1
        case .serve(let options):
            do {
                try await serve(options)
                return 0
            } catch {
                writeToStandardError("localdynamo: \(error)\n")
                return 1
            }
        }
    }

    /// The server configuration DynamoDB Local's options stand for.
    static func configuration(for options: DynamoDBLocalOptions) -> LocalDynamoServer.Configuration {
        var configuration = LocalDynamoServer.Configuration(
            host: "0.0.0.0", port: options.port,
            dataDirectory: options.inMemory ? nil : (options.dbPath ?? "."),
            namespace: options.sharedDB ? .shared : .perAccessKey)
        configuration.cors = options.cors.map(CORSPolicy.init(allowList:)) ?? .anyOrigin
        configuration.transientStatusDelay = options.delayTransientStatuses ? DynamoDBLocalOptions.transientStatusDelay : 0
        return configuration
    }

    /// Writes a short message to file descriptor 2 at once.
    private static func writeToStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func serve(_ options: DynamoDBLocalOptions) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "localdynamo")
        let configuration = configuration(for: options)
        if let directory = configuration.dataDirectory {
            try DataDirectoryMigration.migrate(directory: directory, namespace: configuration.namespace, logger: logger)
            if options.optimizeDBBeforeStartup {
                for path in try DynamoEngine.compactDatabases(in: directory) { logger.info("optimized \(path)") }
            }
        }
        let server = try LocalDynamoServer(configuration: configuration, logger: logger)
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        try await server.start()
        ServeCommand.writeToStandardOutput(options.banner(version: LocalDynamoVersion.current))
        let received = await signals.next()
        logger.info("received signal \(received), shutting down")
        await server.shutdown()
    }
}
