// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LocalDynamo",
    // The lowest versions with `Synchronization` (`Mutex`, `Atomic`), which the client, the store
    // and the expression cache use. The server, the CLI and the test support build on macOS and
    // Linux only.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "localdynamo", targets: ["localdynamo"]),
        .library(name: "DynamoAPI", targets: ["DynamoAPI"]),
        .library(name: "DynamoServer", targets: ["DynamoServer"]),
        .library(name: "DynamoExpressions", targets: ["DynamoExpressions"]),
        .library(name: "DynamoClient", targets: ["DynamoClient"]),
        // `URLSessionTransport`: DynamoClient's default on Apple platforms (it links it there);
        // on Linux a separate choice, so nothing that links DynamoClient pays for FoundationNetworking.
        .library(name: "DynamoURLSession", targets: ["DynamoURLSession"]),
        .library(name: "DynamoStore", targets: ["DynamoStore"]),
        // `withTestServer`: an in-process server on a free port for other packages' tests.
        .library(name: "DynamoTestSupport", targets: ["DynamoTestSupport"]),
        // `EmbeddedEngine` / `EmbeddedTransport`: the engine in the app's process, reached by
        // DynamoClient with no socket (a local table, or unit tests).
        .library(name: "DynamoEmbedded", targets: ["DynamoEmbedded"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libcurl's headers, and a loader that opens the library on first use (nothing links it:
        // most servers never call S3 or Kinesis, and libcurl's TLS and LDAP libraries cost the
        // start and 5 MB of memory); see include/CCurl.h.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // glibc's allocator statistics for /metrics (Swift's Glibc module leaves malloc.h out).
        .systemLibrary(name: "CMallocInfo"),
        // SQLite's default page cache behind a layer that skips needless truncation walks (see
        // its header); C because `sqlite3_config` is variadic.
        .target(name: "CSQLitePageCache", dependencies: ["CSQLite"]),
        .target(name: "DynamoAPI"),
        .target(name: "AWSSigV4", dependencies: ["DynamoAPI"]),
        .target(name: "DynamoExpressions", dependencies: ["DynamoAPI"]),
        // The server's calls to S3 and Kinesis (export/import, streaming destinations).
        .target(name: "OutgoingHTTP", dependencies: ["AWSSigV4", .target(name: "CCurl", condition: .when(platforms: [.linux]))]),
        .target(
            name: "AWSNeighbours",
            dependencies: ["DynamoEngine", "AWSSigV4", "OutgoingHTTP", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "DynamoPartiQL", dependencies: ["DynamoAPI", "DynamoExpressions"]),
        .target(
            name: "DynamoEngine",
            dependencies: [
                "DynamoAPI", "DynamoExpressions", "DynamoPartiQL", "AWSSigV4", "CSQLite", "CSQLitePageCache", "CZlib",
                "CZstd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "DynamoServer",
            dependencies: [
                "DynamoAPI", "DynamoEngine", "DynamoExpressions", "AWSSigV4", "AWSNeighbours", "CZlib", "CMallocInfo",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "localdynamo",
            dependencies: [
                "DynamoServer", "DynamoEngine", "DynamoClient", "DynamoAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The transport's request, response and error types, below both transports.
        .target(name: "DynamoHTTP"),
        .target(name: "DynamoURLSession", dependencies: ["DynamoHTTP"]),
        .target(
            name: "DynamoClient",
            dependencies: [
                "DynamoAPI", "AWSSigV4", "DynamoHTTP",
                // URLSession is the Apple platforms' transport; on Linux FoundationNetworking (and
                // the libcurl it links at start) stays out of the server and of apps that use libcurl.
                .target(name: "DynamoURLSession", condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
                // libcurl is the Linux transport; Apple platforms use URLSession and do not link it.
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "DynamoStore",
            dependencies: [
                "DynamoClient", "DynamoAPI", "DynamoExpressions",
                // The offline store's file: the system's SQLite (Apple platforms import SQLite3).
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Async methods of a (non-Sendable) ObjectContext run on the caller's actor.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .executableTarget(
            name: "Locations",
            dependencies: ["DynamoStore", "DynamoClient", "DynamoAPI"],
            path: "Examples/Locations",
            exclude: ["README.md"]
        ),
        // The phone of the offline kill tests: a DynamoStore app the tests start and SIGKILL.
        .executableTarget(
            name: "offline-phone",
            dependencies: ["DynamoStore", "DynamoClient", "DynamoAPI"],
            path: "Tests/OfflinePhone"
        ),
        // scripts/fuzz's in-process targets: seeded mutations through the request path's parsers.
        .executableTarget(
            name: "localdynamo-fuzz",
            dependencies: ["DynamoAPI", "DynamoExpressions", "DynamoPartiQL", "AWSSigV4"]
        ),
        // DynamoClient's in-process transport to the server; the client itself never imports
        // the server.
        .target(
            name: "DynamoEmbedded",
            dependencies: ["DynamoClient", "DynamoServer", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "DynamoTestSupport",
            dependencies: ["DynamoServer", "DynamoAPI", "DynamoEngine", "DynamoClient", "DynamoEmbedded", "DynamoURLSession"]
        ),
        .testTarget(name: "DynamoAPITests", dependencies: ["DynamoAPI"]),
        .testTarget(name: "AWSSigV4Tests", dependencies: ["AWSSigV4"]),
        .testTarget(name: "AWSNeighboursTests", dependencies: ["AWSNeighbours", "AWSSigV4"]),
        .testTarget(name: "DynamoExpressionsTests", dependencies: ["DynamoExpressions", "DynamoAPI"]),
        .testTarget(name: "DynamoPartiQLTests", dependencies: ["DynamoPartiQL", "DynamoExpressions", "DynamoAPI"]),
        .testTarget(
            name: "DynamoClientTests",
            dependencies: [
                "DynamoClient", "DynamoTestSupport", "DynamoEmbedded", "DynamoServer", "DynamoAPI", "DynamoURLSession",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DynamoStoreTests",
            dependencies: ["DynamoStore", "DynamoClient", "DynamoTestSupport", "DynamoAPI", "DynamoExpressions"]
        ),
        .testTarget(
            name: "DynamoEngineTests",
            dependencies: [
                "DynamoEngine", "DynamoAPI", "DynamoExpressions", "DynamoTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DynamoServerTests",
            dependencies: [
                "DynamoServer", "DynamoTestSupport", "DynamoAPI", "DynamoEngine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ]
)

// One settings block for every target: Swift 6 mode with upcoming features.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
