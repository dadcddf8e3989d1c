// swift-tools-version: 6.1
// Reel: a headless engine for short-form video feeds (HLS/DASH over libcurl, FFmpeg decoding,
// disk cache, prefetch, feed rules). See README.md and DESIGN.md for the map.
import Foundation
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
        .executable(name: "reel-view", targets: ["reel-view"]),
        .library(name: "ReelCore", targets: ["ReelCore"]),
        .library(name: "ReelManifest", targets: ["ReelManifest"]),
        .library(name: "ReelStore", targets: ["ReelStore"]),
        .library(name: "ReelFeed", targets: ["ReelFeed"]),
        .library(name: "ReelNet", targets: ["ReelNet"]),
        .library(name: "ReelMedia", targets: ["ReelMedia"]),
        .library(name: "ReelServer", targets: ["ReelServer"]),
        .library(name: "ReelEngine", targets: ["ReelEngine"]),
        .library(name: "ReelReport", targets: ["ReelReport"]),
        .library(name: "ReelSim", targets: ["ReelSim"]),
        .library(name: "ReelHarness", targets: ["ReelHarness"]),
        .library(name: "ReelSplash", targets: ["ReelSplash"]),
        .library(name: "ReelLaunch", targets: ["ReelLaunch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
    ],
    targets: [
        // C side: one module per library, plus one shim target for what Swift cannot import.
        cLibrary("CAVFormat", pkgConfig: "libavformat", apt: "libavformat-dev"),
        cLibrary("CAVCodec", pkgConfig: "libavcodec", apt: "libavcodec-dev"),
        cLibrary("CAVUtil", pkgConfig: "libavutil", apt: "libavutil-dev"),
        cLibrary("CSWScale", pkgConfig: "libswscale", apt: "libswscale-dev"),
        cLibrary("CSWResample", pkgConfig: "libswresample", apt: "libswresample-dev"),
        cLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        cLibrary("CRLottie", pkgConfig: "rlottie", apt: "librlottie-dev"),
        // The viewer's window, alone: the `reel` CLI and the library stay headless. No pkg-config:
        // SDL's cflags carry -D_REENTRANT, which SwiftPM drops with a warning on every build; the
        // headers include <SDL2/...> instead of adding SDL2/ to the search path.
        .systemLibrary(name: "CSDL2", path: "CSupport/CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2TTF", path: "CSupport/CSDL2TTF", providers: [.apt(["libsdl2-ttf-dev"])]),
        .target(
            name: "CReelShims",
            dependencies: ["CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CCurl"],
            path: "CSupport/CReelShims"
        ),

        // Swift modules, cut by dependency, pointing one way (DESIGN.md draws the ladder;
        // ArchitectureTests checks the imports): a pure foundation, the pure manifest library and
        // feed domain above it, then the network (curl, SQLite), media (FFmpeg), launch
        // (rlottie), the engine an app embeds, the reports, the CDN simulator apart, the harness
        // that stands the simulator up around sessions, and the CLI.
        .target(
            name: "ReelCore",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // HLS and DASH: the manifest model, its parsers and writer. Pure: the fuzzers link it alone.
        .target(
            name: "ReelManifest",
            dependencies: ["ReelCore", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift
        ),
        // Stored state decoded without traps: SQLite values, and the disk cache's index as rows
        // and in memory. Pure: the fuzzers drive it without a database.
        .target(
            name: "ReelStore",
            dependencies: ["ReelCore", "ReelManifest", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift
        ),
        // The feed domain: catalog, feed model, layout, visibility, the play rules, prediction and
        // preload, and the FeedCoordinator that holds the feed's decisions. Pure.
        .target(
            name: "ReelFeed",
            dependencies: ["ReelCore", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelNet",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelStore", "CCurl", "CSQLite", "CReelShims",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ReelMedia",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelNet", "CAVFormat", "CAVCodec", "CAVUtil", "CSWScale", "CSWResample", "CReelShims",
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
                "ReelCore", "ReelManifest", "ReelFeed", "ReelNet", "ReelMedia",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The session report (HTML) and the sweep's statistics and page: read events and summaries,
        // never touch a session.
        .target(
            name: "ReelReport",
            dependencies: [
                "ReelCore", "ReelFeed", "ReelMedia", "ReelEngine",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        // Sessions in virtual time: the feed's coordinator with models of the link, the players,
        // the cache and prefetch in place of the real ones; and the short-video benchmark.
        .target(
            name: "ReelSim",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelServer",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        // The launch's decisions and assets, without I/O but rlottie: the launch policy, the
        // splash configuration, the stored state's rows, Lottie assets checked and drawn.
        .target(
            name: "ReelSplash",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelStore", "CRLottie",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // What the app shows at launch, performed: the launch controller, the state in SQLite,
        // fetching splash assets.
        .target(
            name: "ReelLaunch",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelNet", "ReelSplash",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Stands the CDN simulator up around feed sessions (feed run, comparisons): the one place
        // the engine meets ReelServer, so an app embedding ReelEngine does not link SwiftNIO.
        .target(
            name: "ReelHarness",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelReport", "ReelServer",
                "ReelSim",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "reel",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelFeed", "ReelNet", "ReelMedia", "ReelServer", "ReelEngine", "ReelReport",
                "ReelSim", "ReelHarness", "ReelSplash", "ReelLaunch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        // The viewer: the feed on a screen with SDL2, driven through the engine's public API
        // (the harness only serves the bundled samples).
        .executableTarget(
            name: "reel-view",
            dependencies: [
                "ReelCore", "ReelManifest", "ReelStore", "ReelFeed", "ReelNet", "ReelMedia", "ReelEngine", "ReelSplash", "ReelLaunch",
                "ReelHarness", "CSDL2", "CSDL2TTF",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),

        // Tests: one target per module, plus end-to-end tests that run the `reel` binary, sharing
        // a small support library (sample index, the built tool, the CDN simulator).
        .target(name: "ReelTestSupport", dependencies: ["ReelServer", "ReelNet", "ReelCore", .product(name: "Logging", package: "swift-log")], path: "Tests/Support", swiftSettings: strictSwift),
        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore"], swiftSettings: strictSwift),
        .testTarget(name: "ReelManifestTests", dependencies: ["ReelManifest", "ReelCore"], swiftSettings: strictSwift),
        .testTarget(name: "ReelFeedTests", dependencies: ["ReelFeed", "ReelCore"], swiftSettings: strictSwift),
        .testTarget(
            name: "ReelReportTests",
            dependencies: ["ReelReport", "ReelEngine", "ReelFeed", "ReelCore", "ReelHarness", "ReelServer", "ReelTestSupport",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift),
        .testTarget(name: "ReelSimTests", dependencies: ["ReelSim", "ReelFeed", "ReelEngine", "ReelMedia", "ReelCore", "ReelServer", "ReelTestSupport"],
                    swiftSettings: strictSwift),
        .testTarget(name: "ReelHarnessTests", dependencies: ["ReelHarness", "ReelFeed", "ReelCore", "ReelTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "ReelNetTests",
            dependencies: ["ReelNet", "ReelManifest", "ReelServer", "ReelTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "ReelMediaTests", dependencies: ["ReelMedia", "ReelManifest", "ReelServer", "ReelTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "ReelServerTests", dependencies: ["ReelServer", "ReelCore", "ReelTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "ReelEngineTests",
            dependencies: ["ReelEngine", "ReelFeed", "ReelReport", "ReelHarness", "ReelServer", "ReelTestSupport",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: strictSwift),
        .testTarget(
            name: "ReelLaunchTests",
            dependencies: [
                "ReelLaunch", "ReelSplash", "ReelManifest", "ReelServer", "ReelTestSupport",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "ReelViewTests",
            dependencies: ["reel-view", "reel", "ReelCore", "ReelFeed", "ReelMedia", "ReelSplash", "ReelLaunch", "ReelTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "IntegrationTests", dependencies: ["reel", "ReelServer", "ReelCore", "ReelFeed", "ReelEngine", "ReelReport", "ReelTestSupport"], swiftSettings: strictSwift),
    ],
    swiftLanguageModes: [.v6]
)

extension Target.Dependency {
    /// The target or product this names (the two hooks below follow or drop dependencies by name).
    var name: String? {
        switch self {
        case .targetItem(let name, _), .byNameItem(let name, _), .productItem(let name, _, _, _): name
        @unknown default: nil
        }
    }
}

// `REEL_TEST_SOURCES=Concurrency` compiles only that folder of each test target, with only the
// dependencies its files import: `make tsan` runs the suites in `Tests/<target>/Concurrency/`
// (threads, players, transfers, and what they need) and need not sanitize the rest.
if let folder = Context.environment["REEL_TEST_SOURCES"] {
    let root = Context.packageDirectory + "/Tests/"
    for target in package.targets where target.type == .test {
        target.sources = [folder]
        let directory = root + target.name + "/" + folder
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let imported = Set(files.flatMap { file in
            ((try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? "")
                .split(separator: "\n").compactMap { line in line.split(separator: " ").drop { $0 != "import" }.dropFirst().first.map(String.init) }
        })
        target.dependencies.removeAll { dependency in dependency.name.map { !imported.contains($0) } ?? false }
    }
}

// `REEL_TEST_TARGETS=A,B swift build --build-tests` builds only those test targets and what they
// depend on (no products): `make tsan` builds its sanitized copy this way, since a sanitized build
// of everything took as long as the normal build.
if let subset = Context.environment["REEL_TEST_TARGETS"] {
    let targets = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept: Set<String> = []
    var queue = subset.split(separator: ",").map(String.init)
    while let name = queue.popLast() {
        guard kept.insert(name).inserted, let target = targets[name] else { continue }
        // A product's name finds no target here and ends the walk.
        queue += target.dependencies.compactMap(\.name)
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products = []
}
