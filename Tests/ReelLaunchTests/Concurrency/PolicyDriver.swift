import Foundation
import ReelCore
import ReelLaunch
import ReelManifest
import ReelNet
import ReelSplash
import Testing

/// Drives a `LaunchPolicy` through a scripted run on a `ManualClock`: each event happens at the
/// clock's time, and the background work the policy asks for is answered at once, as the network
/// is (`online`: the configuration and the assets `assetStatus` names; `offline`: every fetch fails).
struct PolicyDriver {
    static let configurationURL = URL(string: "https://cdn.example/launch/splash-config.json")!

    var policy: LaunchPolicy
    let clock = ManualClock()
    let epoch: Date
    /// The wall clock the events read: `epoch` plus what `clock` has moved.
    let wallClock: LaunchClock
    var online = true
    /// What a download of each asset URL finds (valid when absent).
    var assetStatus: [String: SplashAssetStatus] = [:]
    /// The size of every asset downloaded, in bytes.
    var assetSize = 0
    /// The configuration an online fetch returns.
    var entries: [SplashEntry]
    /// Every action the policy asked for, in order.
    private(set) var actions: [LaunchAction] = []

    init(parameters: LaunchParameters = PolicyDriver.parameters(), entries: [SplashEntry], start: String = "2026-11-24T00:00:00Z",
         state: LaunchState = LaunchState(), configuration: SplashConfiguration? = nil, assets: [String: SplashAssetStatus] = [:]) {
        policy = LaunchPolicy(parameters: parameters, state: state, configuration: configuration, assets: assets)
        epoch = date(start)
        wallClock = LaunchClock.following(clock, from: epoch)
        self.entries = entries
    }

    static func parameters(flag: SplashFlag = .on, aheadHours: Double = 72, maxAssets: Int = 16, maxTotalBytes: Int = 8 << 20) -> LaunchParameters {
        LaunchParameters(splashFlag: flag, configurationURL: configurationURL, downloadAheadSeconds: aheadHours * 3600,
                         maxAssets: maxAssets, maxTotalBytes: maxTotalBytes)
    }

    /// The clock's time as a date.
    var now: Date { wallClock.now() }

    /// Moves the clock to `time` (never back).
    mutating func advance(to time: String) {
        let target = date(time)
        let seconds = target.timeIntervalSince(epoch) - clock.now.offset.seconds
        precondition(seconds >= 0, "time goes back to \(time)")
        clock.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// The event of `kind` at `time`, with the background work it starts answered.
    mutating func event(_ kind: LaunchEvent.Kind, at time: String) -> LaunchDecision {
        advance(to: time)
        let outcome = policy.handle(LaunchEvent(time: now, kind: kind))
        answer(outcome.actions)
        return outcome.decision
    }

    /// Answers fetches and downloads until the policy asks for nothing more.
    mutating func answer(_ first: [LaunchAction]) {
        var pending = first
        while !pending.isEmpty {
            let action = pending.removeFirst()
            actions.append(action)
            switch action {
            case .fetchConfiguration(let url):
                if online {
                    pending += policy.configurationFetched(SplashConfiguration(url: url, fetchedAt: now, entries: entries))
                } else {
                    pending += policy.configurationFailed(at: now)
                }
            case .downloadAsset(let url):
                let status = online ? assetStatus[url] ?? .valid : .failed("offline", at: now)
                pending += policy.assetStored(url, status, bytes: assetSize, at: now)
            default:
                break
            }
        }
    }

    /// Asset URLs the policy asked to download or delete so far.
    var downloaded: [String] { actions.compactMap { if case .downloadAsset(let url) = $0 { url } else { nil } } }
    var deleted: [String] { actions.compactMap { if case .deleteAsset(let url) = $0 { url } else { nil } } }
}

/// A date from ISO 8601 text, which the test trusts to parse.
func date(_ text: String) -> Date {
    guard let date = ISO8601Date.parse(text) else { fatalError("bad date in a test: \(text)") }
    return date
}

/// A splash of the test configurations; its asset is `<id>.json` next to the configuration.
func splash(_ id: String, from start: String, to end: String, every minutes: Double = 0, priority: Int? = nil) -> SplashEntry {
    SplashEntry(id: id, start: date(start), end: date(end), assetURL: asset(id), displayIntervalMinutes: minutes, priority: priority)
}

/// The asset URL of a test splash.
func asset(_ id: String) -> String {
    URL(string: "\(id).json", relativeTo: PolicyDriver.configurationURL)!.absoluteString
}
