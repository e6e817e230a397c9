/// DynamoDB Local's command line, read as DynamoDB Local reads it, so `localdynamo` can stand in
/// for `java -jar DynamoDBLocal.jar …` unchanged.
///
/// Leading JVM words are skipped: `-Dname=value`, `-X…` options and `-jar <file>` (the image and
/// scripts written for DynamoDB Local pass `-jar DynamoDBLocal.jar` first). Then every word is a
/// single-dash option; words that are not options are ignored, as DynamoDB Local's parser leaves
/// them. The checks and their messages follow DynamoDB Local (2.x), in its order: `-help`,
/// `-version`, the port (1 < port ≤ 65535), `-optimizeDbBeforeStartup` without `-dbPath`,
/// `-dbPath` with `-inMemory`, `-dbPath` that is not a directory.
struct DynamoDBLocalOptions: Equatable {
    var port = 8000
    var inMemory = false
    var sharedDB = false
    /// `-dbPath` as written (`nil`: the current directory, printed as `null`).
    var dbPath: String?
    /// `-cors` as written (`nil`: every origin, printed as `null`).
    var cors: String?
    var delayTransientStatuses = false
    var optimizeDBBeforeStartup = false
    var disableTelemetry = false

    /// Seconds `-delayTransientStatuses` keeps CREATING, UPDATING and DELETING visible (on the
    /// server clock, so tests move past it with `POST /_localdynamo/clock`).
    static let transientStatusDelay: Double = 5

    /// What the command line asks for.
    enum Request: Equatable {
        case serve(DynamoDBLocalOptions)
        case help
        case version
        /// A refused command line: the message for standard error, and whether the usage follows.
        case failure(String, showUsage: Bool)
    }

    /// The option names that take a value.
    static let valued: Set<String> = ["port", "dbPath", "cors"]
    /// The option names that take none.
    static let flags: Set<String> = [
        "inMemory", "sharedDb", "delayTransientStatuses", "optimizeDbBeforeStartup",
        "disableTelemetry", "help", "version",
    ]

    /// Whether a command line is DynamoDB Local's rather than ours: it starts with a JVM word or
    /// one of DynamoDB Local's single-dash options (ours are `--long` or subcommands).
    static func isDynamoDBLocalCommandLine(_ arguments: [String]) -> Bool {
        guard let first = arguments.first, first.hasPrefix("-"), !first.hasPrefix("--") else { return false }
        let name = String(first.dropFirst())
        return isJVMWord(first) || valued.contains(name) || flags.contains(name)
    }

    private static func isJVMWord(_ word: String) -> Bool {
        word == "-jar" || word.hasPrefix("-D") || word.hasPrefix("-X")
    }

    /// Reads a command line (without the program name).
    /// - Parameter isDirectory: whether a path names a directory (injected for tests).
    static func parse(_ arguments: [String], isDirectory: (String) -> Bool) -> Request {
        var words = arguments[...]
        // The JVM's own words, up to and including `-jar <file>`.
        while let first = words.first, isJVMWord(first) {
            words = words.dropFirst()
            if first == "-jar" {
                words = words.dropFirst()
                break
            }
        }
        var present = Set<String>()
        var values: [String: String] = [:]
        while let word = words.popFirst() {
            guard word.hasPrefix("-"), word.count > 1 else { continue }
            let name = String(word.dropFirst())
            if flags.contains(name) {
                present.insert(name)
            } else if valued.contains(name) {
                guard let value = words.popFirst() else {
                    return .failure("Error while parsing options. Missing argument for option: \(name)", showUsage: true)
                }
                present.insert(name)
                values[name] = value
            } else {
                return .failure("Error while parsing options. Unrecognized option: \(word)", showUsage: true)
            }
        }
        if present.contains("help") { return .help }
        if present.contains("version") { return .version }
        var options = DynamoDBLocalOptions()
        options.optimizeDBBeforeStartup = present.contains("optimizeDbBeforeStartup")
        if let text = values["port"] {
            guard let port = Int(text) else { return .failure(invalidPort, showUsage: false) }
            options.port = port
        }
        guard options.port > 1, options.port <= 65535 else { return .failure(invalidPort, showUsage: false) }
        options.inMemory = present.contains("inMemory")
        options.disableTelemetry = present.contains("disableTelemetry")
        options.delayTransientStatuses = present.contains("delayTransientStatuses")
        options.dbPath = values["dbPath"]
        if options.optimizeDBBeforeStartup, options.dbPath == nil {
            return .failure(
                "optimizeDbBeforeStartup option must be used with dbPath to determine the location of database files to optimize.", showUsage: false)
        }
        if options.inMemory, options.dbPath != nil {
            return .failure("dbPath and inMemory cannot be set at the same time.", showUsage: false)
        }
        if let path = options.dbPath, !isDirectory(path) {
            return .failure("Invalid directory for database creation.", showUsage: false)
        }
        options.sharedDB = present.contains("sharedDb")
        options.cors = values["cors"]
        return .serve(options)
    }

    private static let invalidPort = "Invalid Port. Port number must lie between 1 and 65535."

    /// DynamoDB Local's startup banner for these options (log-based wait strategies look for
    /// its first line).
    func banner(version: String) -> String {
        """
        Initializing DynamoDB Local with the following configuration:
        Port:\t\(port)
        InMemory:\t\(inMemory)
        Version:\t\(version)
        DbPath:\t\(dbPath ?? "null")
        SharedDb:\t\(sharedDB)
        shouldDelayTransientStatuses:\t\(delayTransientStatuses)
        CorsParams:\t\(cors ?? "null")


        """
    }

    /// The `-help` text.
    static let usage = """
        usage: localdynamo [-jar DynamoDBLocal.jar] [-port <port-no.>] [-inMemory] [-delayTransientStatuses] [-dbPath <path>] [-sharedDb] [-disableTelemetry] [-optimizeDbBeforeStartup] [-cors <allow-list>] [-version]
         -cors <allow-list>          Browser origins allowed by CORS, comma-separated; '*' (the default) allows all.
         -dbPath <path>              Directory of the database files (default: the current directory). DynamoDB
                                     Local's own files found there are migrated into LocalDynamo's on first start.
         -delayTransientStatuses     Keep CREATING, UPDATING and DELETING (tables and indexes) visible for a while,
                                     as DynamoDB does, instead of finishing at once.
         -disableTelemetry           Accepted; LocalDynamo sends no telemetry.
         -help                       Show this usage.
         -inMemory                   Keep everything in memory; nothing is written to disk.
         -optimizeDbBeforeStartup    Compact the database files in -dbPath before serving (needs -dbPath).
         -port <port-no.>            Port to listen on (default 8000), on every interface.
         -sharedDb                   One set of tables for every access key and region (otherwise one per access
                                     key id and region, as DynamoDB Local does).
         -version                    Show LocalDynamo's version.
        LocalDynamo's own interface: localdynamo --help

        """
}
