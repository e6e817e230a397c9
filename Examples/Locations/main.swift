import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation

/// The AWS article's Locations / Checkins sample as a command-line program:
///
///     swift run Locations                                  # starts its own localdynamo
///     swift run Locations --endpoint http://127.0.0.1:8000 # any DynamoDB-compatible endpoint
///     swift run Locations --aws                            # real DynamoDB (AWS_REGION, credentials…)
///
/// It creates its tables, adds locations and check-ins in one save, lists them sorted, shows
/// a conflict resolved by a merge policy, then its offline mode (an offline store on a file,
/// `--offline-file`, default a temporary file: saves made offline, read offline, kept across
/// a relaunch, replayed when the network is back), and deletes its tables unless
/// `--keep-tables`.
enum LocationsExample {
    /// Prefix of the example's table names (`--table-prefix`, default `LocationsExample-`).
    /// `nonisolated(unsafe)`: written once while the arguments are read, before anything reads it.
    nonisolated(unsafe) static var tablePrefix = "LocationsExample-"

    static func run(_ arguments: [String]) async throws {
        var endpoint: String?
        var useAWS = false
        var keepTables = false
        var offlineFile: String?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--endpoint": endpoint = iterator.next()
            case "--aws": useAWS = true
            case "--keep-tables": keepTables = true
            case "--offline-file": offlineFile = iterator.next()
            case "--table-prefix": tablePrefix = iterator.next() ?? tablePrefix
            case "--help", "-h":
                say("usage: Locations [--endpoint URL | --aws] [--table-prefix P] [--offline-file PATH] [--keep-tables]")
                return
            default: throw ExampleError("unknown argument \(argument); see --help")
            }
        }
        var server: LocalServer?
        var configuration = DynamoClient.Configuration()
        if !useAWS {
            if endpoint == nil {
                server = try LocalServer()
                endpoint = server?.endpoint
            }
            let environment = ProcessInfo.processInfo.environment
            configuration = DynamoClient.Configuration(
                region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1", endpoint: endpoint,
                credentials: environment["AWS_ACCESS_KEY_ID"] == nil ? AWSCredentials(accessKeyID: "local", secretAccessKey: "local") : nil)
        }
        let client = try DynamoClient(configuration: configuration)
        defer { server?.stop() }
        say("DynamoDB endpoint: \(client.endpoint)")
        let store = try DynamoStore(types: [Location.self, Checkin.self], client: client)
        try await store.createTables()
        let temporaryFile = FileManager.default.temporaryDirectory.appendingPathComponent("locations-\(UUID().uuidString).sqlite").path
        defer {
            if offlineFile == nil {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporaryFile + suffix) }
            }
        }
        do {
            try await tour(store)
            try await offlineTour(configuration: configuration, file: offlineFile ?? temporaryFile)
        } catch {
            if !keepTables { try? await deleteTables(store) }
            throw error
        }
        if !keepTables { try await deleteTables(store) }
    }

    static func tour(_ store: DynamoStore) async throws {
        // Add locations and check-ins: one save, one transaction.
        let context = ObjectContext(store: store)
        let places = [("Harbour", 59.91, 10.75), ("Bakery", 59.92, 10.76), ("Museum", 59.90, 10.72)]
        let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01
        for (index, (name, latitude, longitude)) in places.enumerated() {
            let location = Location(context: context)
            location.name = name
            location.latitude = latitude
            location.longitude = longitude
            for visit in 0..<index + 1 {
                let checkin = Checkin(context: context)
                checkin.checkinTime = start.addingTimeInterval(Double(visit * 3600 + index * 60))
                checkin.comment = "visit \(visit + 1) to \(name)"
                checkin.location = location
            }
        }
        try await context.save()
        say("saved \(places.count) locations and 6 check-ins in one save")

        // List the locations sorted by name (a Scan: no key is constrained; sorted in memory).
        let reader = ObjectContext(store: store)
        let byName = try FetchRequest<Location>(in: store.model, sortBy: [.ascending("name")])
        say("locations, by name — \(byName.explain())")
        let locations = try await reader.fetch(byName)
        for location in locations { say("  \(location.name) (\(location.latitude), \(location.longitude))") }

        // The check-ins of one location, newest first: a Query on the byLocation index in
        // reverse key order (no scan, no in-memory sort).
        let museum = try require(locations.first { $0.name == "Museum" })
        let visits = try FetchRequest<Checkin>(
            in: store.model, predicate: FetchPredicate("location == %@", museum.objectID),
            sortBy: [.descending("checkinTime")])
        say("check-ins at Museum, newest first — \(visits.explain())")
        for checkin in try await reader.fetch(visits) {
            say("  \(checkin.checkinTime.formatted(.iso8601)) \(checkin.comment ?? "")")
        }

        // A conflict: two contexts change the Bakery; the second resolves by merge policy.
        let bakeryID = try require(locations.first { $0.name == "Bakery" }).objectID
        let phone = ObjectContext(store: store)
        let tablet = ObjectContext(store: store)
        tablet.mergePolicy = .mergeByPropertyStoreTrump
        let onPhone = try require(try await phone.existingObject(with: bakeryID) as? Location)
        let onTablet = try require(try await tablet.existingObject(with: bakeryID) as? Location)
        onPhone.name = "Bakery & Café"
        try await phone.save()
        onTablet.name = "Old Bakery"
        onTablet.latitude = 59.925
        try await tablet.save()
        let merged = try require(try await ObjectContext(store: store).existingObject(with: bakeryID) as? Location)
        say(
            "conflict on Bakery resolved by mergeByPropertyStoreTrump: name \"\(merged.name)\" (the store's), latitude \(merged.latitude) (the tablet's), version \(merged.version)"
        )
    }

    static func deleteTables(_ store: DynamoStore) async throws {
        for entity in store.model.entities {
            _ = try await store.client.deleteTable(DeleteTableInput(tableName: entity.tableName))
        }
    }
}

/// Prints a line unbuffered, so it keeps its order next to the store's warnings on stderr.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `#require` for the example: unwraps or stops with a message.
func require<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw ExampleError("missing \(what)") }
    return value
}

do {
    try await LocationsExample.run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("Locations: \(error)\n".utf8))
    exit(1)
}
