// swift-tools-version: 6.1
// Reel: a headless engine for short-form video feeds (HLS/DASH over libcurl, FFmpeg decoding,
// disk cache, prefetch, feed rules). See README.md and DESIGN.md for the map.
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode with strict concurrency, explicit `any`.
let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// One system-library target per C library, each with its pkg-config name and Debian package.
func cLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "CSupport/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
        .library(name: "ReelCore", targets: ["ReelCore"]),
        .library(name: "ReelNet", targets: ["ReelNet"]),
        .library(name: "ReelMedia", targets: ["ReelMedia"]),
        .library(name: "ReelServer", targets: ["ReelServer"]),
        .library(name: "ReelEngine", targets: ["ReelEngine"]),
        .library(name: "ReelHarness", targets: ["ReelHarness"]),
        .library(name: "ReelLaunch", targets: ["ReelLaunch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
    ],
    targets: [
        // C side: one module per library, plus one shim target for what Swift cannot import.
        cLibrary("CAVFormat", pkgConfig: "libavformat", apt: "libavformat-dev"),
        cLibrary("CAVCodec", pkgConfig: "libavcodec", apt: "libavcodec-dev"),
        cLibrary("CAVUtil", pkgConfig: "libavutil", apt: "libavutil-dev"),
        cLibrary("CSWScale", pkgConfig: "libswscale", apt: "libswscale-dev"),
        cLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        cLibrary("CRLottie", pkgConfig: "rlottie", apt: "librlottie-dev"),
        .target(
            name: "CReelShims",
            dependencies: ["CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CCurl"],
            path: "CSupport/CReelShims"
        ),

        // Swift modules, dependencies pointing one way:
        // reel -> ReelHarness -> ReelEngine -> ReelMedia -> ReelNet -> ReelCore; ReelServer apart
        // (ReelCore only), used by ReelHarness, the CLI and tests; ReelLaunch (ReelNet and ReelCore,
        // below ReelEngine) decides what the app shows at launch. ArchitectureTests checks the imports.
        .target(
            name: "ReelCore",
            dependencies: [
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelNet",
            dependencies: [
                "ReelCore", "CCurl", "CReelShims",
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelMedia",
            dependencies: [
                "ReelCore", "ReelNet", "CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CReelShims",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelServer",
            dependencies: [
                "ReelCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelEngine",
            dependencies: [
                "ReelCore", "ReelNet", "ReelMedia",
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Launch splashes and the loading animation: the launch policy, its state, and Lottie
        // assets checked and drawn with rlottie.
        .target(
            name: "ReelLaunch",
            dependencies: [
                "ReelCore", "ReelNet", "CRLottie",
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Stands the CDN simulator up around feed sessions (feed run, comparisons): the one place
        // the engine meets ReelServer, so an app embedding ReelEngine does not link SwiftNIO.
        .target(
            name: "ReelHarness",
            dependencies: [
                "ReelCore", "ReelNet", "ReelMedia", "ReelEngine", "ReelServer",
                .product(name: "Collections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "reel",
            dependencies: [
                "ReelCore", "ReelNet", "ReelMedia", "ReelServer", "ReelEngine", "ReelHarness", "ReelLaunch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Collections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),

        // Tests: one target per module, plus end-to-end tests that run the `reel` binary, sharing
        // a small support library (sample index, the built tool, the CDN simulator).
        .target(name: "ReelTestSupport", dependencies: ["ReelServer", "ReelNet", "ReelCore", .product(name: "Logging", package: "swift-log")], path: "Tests/Support", swiftSettings: strictSwift),
        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore"], swiftSettings: strictSwift),
        .testTarget(
            name: "ReelNetTests",
            dependencies: ["ReelNet", "ReelServer", "ReelTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift),
        .testTarget(name: "ReelMediaTests", dependencies: ["ReelMedia", "ReelServer", "ReelTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "ReelServerTests", dependencies: ["ReelServer", "ReelCore", "ReelTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "ReelEngineTests",
            dependencies: ["ReelEngine", "ReelHarness", "ReelServer", "ReelTestSupport", .product(name: "Collections", package: "swift-collections")],
            swiftSettings: strictSwift),
        .testTarget(
            name: "ReelLaunchTests",
            dependencies: [
                "ReelLaunch", "ReelServer", "ReelTestSupport",
                .product(name: "Collections", package: "swift-collections"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSwift),
        .testTarget(name: "IntegrationTests", dependencies: ["reel", "ReelServer", "ReelCore", "ReelTestSupport"], swiftSettings: strictSwift),
    ],
    swiftLanguageModes: [.v6]
)
