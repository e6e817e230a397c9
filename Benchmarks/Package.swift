// swift-tools-version: 6.0
// Benchmark helpers for scripts/bench. A package of its own, so `swift build` and `swift test` of
// LocalDynamo never build it (STYLE.md, point 10).
import PackageDescription

let package = Package(
    name: "LocalDynamoBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ceiling-server", targets: ["CeilingServer"]),
        .executable(name: "client-bench", targets: ["ClientBench"]),
        .executable(name: "store-bench", targets: ["StoreBench"]),
    ],
    dependencies: [
        // The version LocalDynamo itself builds on, so the ceiling is the same HTTP stack.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // LocalDynamo itself, for the client benchmark (DynamoClient against boto3) and the
        // store benchmark (DynamoStore's saves and fetches).
        .package(name: "LocalDynamo", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "CeilingServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "ClientBench",
            dependencies: [
                .product(name: "DynamoClient", package: "LocalDynamo"),
                .product(name: "DynamoURLSession", package: "LocalDynamo"),
                .product(name: "DynamoAPI", package: "LocalDynamo"),
            ]
        ),
        .executableTarget(
            name: "StoreBench",
            dependencies: [
                .product(name: "DynamoStore", package: "LocalDynamo"),
                .product(name: "DynamoClient", package: "LocalDynamo"),
            ],
            // As the DynamoStore target: a context's async methods run on the caller's actor.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
    ]
)
