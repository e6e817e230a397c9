// swift-tools-version: 6.0
// Benchmark helpers for scripts/bench. A package of its own, so `swift build` and `swift test` of
// LocalDynamo never build it (STYLE.md, point 10).
import PackageDescription

let package = Package(
    name: "LocalDynamoBenchmarks",
    products: [
        .executable(name: "ceiling-server", targets: ["CeilingServer"]),
    ],
    dependencies: [
        // The version LocalDynamo itself builds on, so the ceiling is the same HTTP stack.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
    ]
)
