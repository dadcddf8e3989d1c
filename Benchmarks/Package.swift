// swift-tools-version: 6.1
// Reel's benchmarks, a package of their own so that building and testing Reel never builds the
// benchmark harness. Run them with `make bench` from the project root.
import PackageDescription

let package = Package(
    name: "ReelBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Reel", path: ".."),
        // The runtime interposer trait needs a package this machine does not carry.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ReelBenchmarks",
            dependencies: [
                .product(name: "ReelCore", package: "Reel"),
                .product(name: "ReelManifest", package: "Reel"),
                .product(name: "ReelStore", package: "Reel"),
                .product(name: "ReelSplash", package: "Reel"),
                .product(name: "ReelFeed", package: "Reel"),
                .product(name: "ReelNet", package: "Reel"),
                .product(name: "ReelLaunch", package: "Reel"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ReelBenchmarks",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
