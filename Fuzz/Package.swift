// swift-tools-version: 6.1
// Reel's libFuzzer targets, a package of their own (like Benchmarks/) so that building and
// testing Reel never builds them. Build and run them with `make fuzz` from the project root,
// which compiles everything with `-sanitize=fuzzer` (coverage instrumentation and libFuzzer).
// Each target defines `LLVMFuzzerTestOneInput`; its main.swift starts libFuzzer's driver, since
// SwiftPM links `main` to the module's own entry point rather than to libFuzzer's.
import PackageDescription

/// One fuzz target: `LLVMFuzzerTestOneInput` and a main.swift that hands it to the driver.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzSupport",
            .product(name: "ReelCore", package: "Reel"),
            .product(name: "ReelManifest", package: "Reel"),
            .product(name: "ReelStore", package: "Reel"),
            .product(name: "OrderedCollections", package: "swift-collections"),
        ],
        swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")])
}

/// A fuzz target of the launch decisions and assets (rlottie, the launch state): ReelSplash too.
func launchFuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzSupport", "LottieGenerator",
            .product(name: "ReelCore", package: "Reel"),
            .product(name: "ReelSplash", package: "Reel"),
            .product(name: "ReelStore", package: "Reel"),
        ],
        swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")])
}

let package = Package(
    name: "ReelFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Reel", path: ".."),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "ReelCore", package: "Reel"),
                .product(name: "ReelManifest", package: "Reel"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
        fuzzTarget("FuzzCacheIndex"),
        fuzzTarget("FuzzHLS"),
        fuzzTarget("FuzzDASH"),
        fuzzTarget("FuzzConfig"),
        fuzzTarget("FuzzJSON"),
        // Structure-aware Lottie documents from fuzz bytes (also `FuzzLottie --write-assets`).
        .target(
            name: "LottieGenerator",
            dependencies: [.product(name: "ReelCore", package: "Reel"), .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
        launchFuzzTarget("FuzzLottie"),
        launchFuzzTarget("FuzzLaunchState"),
    ],
    swiftLanguageModes: [.v6]
)
