import Benchmark
import Foundation
import ReelCore
import ReelLaunch
import ReelManifest
import ReelNet
import ReelSplash

/// A launch decision with 1,000 configured splashes (goal p99 <= 1 ms): the `LaunchPolicy`
/// alone, and through the `LaunchController` actor, which also writes the event's state
/// (lifecycle, display) to SQLite before it answers. The splashes' windows (3 to 30 days) are
/// spread over a year, so about 45 are open at any moment, with priorities (one in ten missing)
/// and intervals of 0 to 24 hours; every asset is cached and valid. Each measured launch is
/// followed, unmeasured, by a background event; time moves 37 minutes per launch and wraps
/// around the year.
func launchBenchmarks() {
    let splashCount = 1000
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics + [.throughput], scalingFactor: .one,
                                                maxDuration: .seconds(3), maxIterations: 100_000)
    let year = ISO8601Date.parse("2026-01-01T00:00:00Z")!
    let configurationURL = URL(string: "https://cdn.example/launch/splash-config.json")!

    /// The splashes, the same on every run; `assets` distinct asset URLs shared among them.
    func splashes(assets: Int, base: URL) -> [SplashEntry] {
        var random = SeededRandom(seed: 15)
        return (0..<splashCount).map { index in
            let start = year.addingTimeInterval(Double(random.next() % 330) * 86_400 + Double(random.next() % 86_400))
            let end = start.addingTimeInterval(Double(3 + random.next() % 28) * 86_400)
            let priority: Int? = random.next() % 10 == 0 ? nil : Int(random.next() % 50)
            let asset = URL(string: "splash-\(index % assets).json", relativeTo: base)!.absoluteURL.absoluteString
            return SplashEntry(id: "splash-\(index)", start: start, end: end, assetURL: asset,
                               displayIntervalMinutes: Double(random.next() % 1441), priority: priority)
        }
    }

    /// The time of the `iteration`-th launch: 37 minutes apart, wrapping around the year.
    func time(_ iteration: Int) -> Date {
        year.addingTimeInterval(Double((iteration * 37 * 60) % (365 * 86_400)))
    }

    // MARK: The policy alone

    nonisolated(unsafe) var policy: LaunchPolicy?
    nonisolated(unsafe) var policyIteration = 0

    func preparePolicy() -> LaunchPolicy {
        if let policy { return policy }
        let entries = splashes(assets: splashCount, base: configurationURL)
        let cached = SplashConfiguration(url: configurationURL, fetchedAt: year.addingTimeInterval(400 * 86_400), entries: entries)
        var assets: [String: SplashAssetStatus] = [:]
        for entry in entries { assets[entry.assetURL] = .valid }
        var lifecycle = LaunchState()
        lifecycle.lifecycle.launches = 1
        lifecycle.lifecycle.sessionStart = year
        let fresh = LaunchPolicy(parameters: LaunchParameters(configurationURL: configurationURL), state: lifecycle,
                                 configuration: cached, assets: assets)
        policy = fresh
        return fresh
    }

    var policyConfiguration = configuration
    policyConfiguration.setup = { _ = preparePolicy() }

    Benchmark("Launch decision (policy), 1,000 splashes", configuration: policyConfiguration) { benchmark in
        var current = preparePolicy()
        policyIteration += 1
        let now = time(policyIteration)
        benchmark.startMeasurement()
        blackHole(current.handle(LaunchEvent(time: now, kind: .launch)))
        benchmark.stopMeasurement()
        _ = current.handle(LaunchEvent(time: now.addingTimeInterval(60), kind: .background))
        policy = current
    }

    // MARK: Through the actor, persisted

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-launch-\(getpid())")
    nonisolated(unsafe) var controller: LaunchController?
    nonisolated(unsafe) var controllerIteration = 0

    /// A controller whose state holds the 1,000 splashes and their 10 assets (copies of a
    /// 4-frame Lottie file), fetched from local files once.
    func prepareController() async -> LaunchController {
        if let controller { return controller }
        try? FileManager.default.removeItem(at: directory)
        let served = directory.appendingPathComponent("served")
        try? FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let local = served.appendingPathComponent("splash-config.json")
        let asset = #"{"v":"5.7.0","fr":30,"ip":0,"op":4,"w":64,"h":64,"layers":[{"ty":4,"nm":"box","ind":1,"ip":0,"op":4,"st":0,"ks":{},"shapes":[{"ty":"gr","it":[{"ty":"rc","p":{"a":0,"k":[32,32]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}]}"#
        for index in 0..<10 { try? Data(asset.utf8).write(to: served.appendingPathComponent("splash-\(index).json")) }
        let entries = splashes(assets: 10, base: local).map { entry -> [String: Any] in
            var object: [String: Any] = ["id": entry.id, "startDateTime": entry.start.formatted(.iso8601),
                                         "endDateTime": entry.end.formatted(.iso8601), "assetUrl": URL(string: entry.assetURL)!.lastPathComponent,
                                         "displayTimeInterval": entry.displayIntervalMinutes]
            if let priority = entry.priority { object["priority"] = priority }
            return object
        }
        try? JSONSerialization.data(withJSONObject: ["holidaySplash": entries]).write(to: local)
        var parameters = LaunchParameters(configurationURL: local, configurationRefreshSeconds: 400 * 86_400,
                                          downloadAheadSeconds: 400 * 86_400)
        parameters.maxConcurrentDownloads = 4
        let manual = ManualClock()
        let fresh = await LaunchController.open(directory: directory.appendingPathComponent("state"), parameters: parameters,
                                                factory: URLDataSourceFactory(engine: TransferEngine(), allowLocalFiles: true), checker: LottieRenderer(),
                                                clock: .following(manual, from: year))
        _ = await fresh.handle(LaunchEvent(time: year, kind: .launch))
        await fresh.waitUntilIdle()
        controller = fresh
        return fresh
    }

    var controllerConfiguration = configuration
    controllerConfiguration.setup = { _ = await prepareController() }
    controllerConfiguration.teardown = {
        await controller?.close()
        controller = nil
        try? FileManager.default.removeItem(at: directory)
    }

    Benchmark("Launch decision (controller, persisted), 1,000 splashes", configuration: controllerConfiguration) { benchmark async in
        let current = await prepareController()
        controllerIteration += 1
        // Never before the first launch, whose configuration stays fresh for 400 days.
        let now = time(controllerIteration)
        benchmark.startMeasurement()
        blackHole(await current.handle(LaunchEvent(time: now, kind: .launch)))
        benchmark.stopMeasurement()
        _ = await current.handle(LaunchEvent(time: now.addingTimeInterval(60), kind: .background))
    }
}
