import ReelCore
import Foundation

/// The launch rules as a pure state machine: lifecycle events in (with their wall-clock time),
/// a decision and actions out. It holds the persisted launch state, the cached splash
/// configuration and what is known of each asset; `LaunchController` performs its actions and
/// feeds back what the background work found. Tests drive this struct directly.
///
/// On `launch` and `foreground`, in order:
/// 1. A splash shows when the flag is on, the crash guard is clear and a configured splash is
///    eligible: `start <= now < end`, its asset cached and valid, and at least its
///    `displayTimeInterval` minutes since that splash was last shown. Among eligible ones the
///    lowest priority wins (none sorts last), then the earlier start, then the smaller id.
/// 2. Otherwise the loading animation, on the first launch ever or when the app was away (in
///    the background, or since the last session ended) for `sessionTimeoutSeconds` or more.
/// 3. Otherwise nothing.
///
/// A crash ends the session; when it came within `crashGuardSeconds` of the session's start
/// (the last launch or foreground) the next launch or foreground shows no splash. Background
/// work (fetching the configuration when it is missing or stale, downloading assets whose window
/// opens within `downloadAheadSeconds`, deleting assets no splash needs) never delays a decision:
/// what it brings applies from the next event. docs/launch.md gives the rules with their reasons.
public struct LaunchPolicy: Sendable {
    public let parameters: LaunchParameters
    public private(set) var state: LaunchState
    /// The cached configuration (whatever its URL; only one from `parameters.configurationURL` counts).
    public private(set) var configuration: SplashConfiguration?
    /// What is known of each asset URL.
    public private(set) var assets: [String: SplashAssetStatus]
    /// The size of each valid asset, in bytes (what `maxTotalBytes` counts).
    public private(set) var assetBytes: [String: Int]
    /// Asset downloads asked for and not answered yet.
    public private(set) var downloading: Set<String> = []
    /// A configuration fetch was asked for and not answered yet.
    public private(set) var fetchingConfiguration = false

    public init(parameters: LaunchParameters, state: LaunchState = LaunchState(),
                configuration: SplashConfiguration? = nil, assets: [String: SplashAssetStatus] = [:],
                assetBytes: [String: Int] = [:]) {
        self.parameters = parameters
        self.state = state
        self.configuration = configuration
        self.assets = assets
        self.assetBytes = assetBytes.filter { assets[$0.key] == .valid }.mapValues { min(max(0, $0), Self.largestAsset) }
    }

    /// Sizes past this count as this: a stored size is outside input, and sums must not overflow.
    private static let largestAsset = 1 << 40

    /// Nothing asked for is outstanding.
    public var isIdle: Bool { downloading.isEmpty && !fetchingConfiguration }

    // MARK: Events

    /// Applies one lifecycle event: the decision for it, then the state to persist and the
    /// background work to start.
    public mutating func handle(_ event: LaunchEvent) -> LaunchOutcome {
        let now = event.time
        var actions: [LaunchAction] = []
        let decision: LaunchDecision
        switch event.kind {
        case .background:
            if state.lifecycle.endedAt == nil { state.lifecycle.endedAt = now }
            state.lifecycle.lastEventAt = now
            decision = LaunchDecision(show: .nothing, reason: .notALaunch, detail: "in the background")
        case .crash:
            let start = state.lifecycle.sessionStart ?? now
            let crash = CrashRecord(time: now, sessionSeconds: max(0, now.timeIntervalSince(start)))
            state.crashes.append(crash)
            if state.crashes.count > LaunchState.crashesKept { state.crashes.removeFirst(state.crashes.count - LaunchState.crashesKept) }
            state.lifecycle.crashGuardPending = crash.sessionSeconds <= parameters.crashGuardSeconds
            // A crash in the background ends a session that had ended for the user already.
            if state.lifecycle.endedAt == nil { state.lifecycle.endedAt = now }
            state.lifecycle.lastEventAt = now
            actions.append(.recordCrash(crash))
            decision = LaunchDecision(show: .nothing, reason: .notALaunch,
                                      detail: "crashed \(LaunchText.duration(crash.sessionSeconds)) into the session"
                                          + (state.lifecycle.crashGuardPending ? "; the next launch shows no splash" : ""))
        case .launch, .foreground:
            // A last display after now (the clock went back) counts as now, persisted, so the
            // splash waits one interval from here instead of until the clock catches up.
            for (id, shown) in state.lastDisplayed.sorted(by: { $0.key < $1.key }) where shown > now {
                state.lastDisplayed[id] = now
                actions.append(.recordDisplay(splash: id, at: now))
            }
            decision = decide(event)
            if let id = decision.splashID {
                state.lastDisplayed[id] = now
                actions.append(.recordDisplay(splash: id, at: now))
            }
            if event.kind == .launch { state.lifecycle.launches += 1 }
            state.lifecycle.sessionStart = now
            state.lifecycle.endedAt = nil
            state.lifecycle.lastEventAt = now
            state.lifecycle.crashGuardPending = false
        }
        actions.append(.saveLifecycle(state.lifecycle))
        if event.kind == .launch || event.kind == .foreground {
            actions += backgroundWork(at: now)
        }
        return LaunchOutcome(decision: decision, actions: actions)
    }

    /// A fetched configuration (its `fetchedAt` is now) replaces the cached one; assets it no
    /// longer needs are deleted and the ones it needs soon downloaded.
    public mutating func configurationFetched(_ fetched: SplashConfiguration) -> [LaunchAction] {
        fetchingConfiguration = false
        configuration = fetched
        return backgroundWork(at: fetched.fetchedAt, fetch: false)
    }

    /// The fetch failed (offline, 404, not JSON): the cached configuration stays; the next
    /// launch or foreground tries again.
    public mutating func configurationFailed(at time: Date) -> [LaunchAction] {
        fetchingConfiguration = false
        return backgroundWork(at: time, fetch: false)
    }

    /// A download ended: the asset is cached and valid, refused, or failed. The next downloads
    /// start; an asset no splash needs any more is deleted at once.
    public mutating func assetStored(_ url: String, _ status: SplashAssetStatus, bytes: Int = 0, at time: Date) -> [LaunchAction] {
        downloading.remove(url)
        assets[url] = status
        assetBytes[url] = status == .valid ? min(max(0, bytes), Self.largestAsset) : nil
        return backgroundWork(at: time, fetch: false)
    }

    // MARK: Deciding

    /// The decision for a launch or foreground at its time, from the state before it.
    private func decide(_ event: LaunchEvent) -> LaunchDecision {
        let now = event.time
        let choice = splashChoice(at: now)
        if case .show(let entry) = choice.outcome {
            return LaunchDecision(show: .splash(entry.id), reason: .eligible, detail: choice.detail, assetURL: entry.assetURL)
        }
        let splashReason = choice.reason
        let lifecycle = state.lifecycle
        if lifecycle.launches == 0 && lifecycle.sessionStart == nil {
            return LaunchDecision(show: .loadingAnimation, reason: .firstLaunch, splashReason: splashReason,
                                  detail: choice.detail, loading: parameters.loading)
        }
        // A clock that went back makes the time away negative: it counts as none.
        let elapsed = (lifecycle.endedAt ?? lifecycle.lastEventAt).map { now.timeIntervalSince($0) } ?? .infinity
        let away = max(0, elapsed)
        let behind = elapsed < 0 ? " (the clock went back \(LaunchText.duration(-elapsed)))" : ""
        let detail = "away \(LaunchText.duration(away))\(behind); " + choice.detail
        if away >= parameters.sessionTimeoutSeconds {
            return LaunchDecision(show: .loadingAnimation, reason: .newSession, splashReason: splashReason, detail: detail,
                                  loading: parameters.loading)
        }
        return LaunchDecision(show: .nothing, reason: .quickReturn, splashReason: splashReason, detail: detail)
    }

    /// Which splash would show at `time` from the state as it stands, or why none.
    public func splashChoice(at time: Date) -> SplashChoice {
        switch parameters.splashFlag {
        case .on: break
        case .off: return SplashChoice(outcome: .none(.disabled), detail: "launch.splash.enabled is off")
        case .versionTooOld(let needs, let have):
            return SplashChoice(outcome: .none(.versionTooOld), detail: "splashes need app version \(needs), have \(have)")
        }
        if state.lifecycle.crashGuardPending {
            let length = state.crashes.last.map { LaunchText.duration($0.sessionSeconds) } ?? "?"
            return SplashChoice(outcome: .none(.crashGuard), detail: "the last session crashed \(length) after its start")
        }
        guard let configuration = currentConfiguration, !configuration.entries.isEmpty else {
            return SplashChoice(outcome: .none(.notConfigured), detail: "no splash configuration cached")
        }
        var best: SplashEntry?
        var blocked: (entry: SplashEntry, reason: LaunchReason)?
        for entry in configuration.entries where entry.isOpen(at: time) {
            let reason = hold(on: entry, at: time)
            if reason == .eligible {
                if best.map({ entry.ranks(before: $0) }) ?? true { best = entry }
            } else if blocked.map({ entry.ranks(before: $0.entry) }) ?? true {
                blocked = (entry, reason)
            }
        }
        if let best {
            return SplashChoice(outcome: .show(best), detail: "'\(LaunchText.escaped(best.id))' until \(LaunchText.date(best.end))")
        }
        if let blocked {
            return SplashChoice(outcome: .none(blocked.reason), detail: describe(blocked.entry, blocked.reason, at: time))
        }
        let next = configuration.entries.first { $0.start > time }
        let detail = next.map { "no splash window open; '\(LaunchText.escaped($0.id))' opens \(LaunchText.date($0.start))" } ?? "no splash window open"
        return SplashChoice(outcome: .none(.outsideWindow), detail: detail)
    }

    /// What holds an open splash back, or `eligible`.
    private func hold(on entry: SplashEntry, at time: Date) -> LaunchReason {
        switch assets[entry.assetURL] {
        case nil, .failed: return .assetNotCached
        case .invalid: return .assetInvalid
        case .valid: break
        }
        if let last = state.lastDisplayed[entry.id], time.timeIntervalSince(last) < entry.displayIntervalMinutes * 60 {
            return .intervalNotElapsed
        }
        return .eligible
    }

    private func describe(_ entry: SplashEntry, _ reason: LaunchReason, at time: Date) -> String {
        switch reason {
        case .intervalNotElapsed:
            let ago = state.lastDisplayed[entry.id].map { time.timeIntervalSince($0) } ?? 0
            return "'\(LaunchText.escaped(entry.id))' was shown \(LaunchText.duration(ago)) ago; its interval is \(LaunchText.duration(entry.displayIntervalMinutes * 60))"
        case .assetInvalid:
            if case .invalid(let problems) = assets[entry.assetURL] { return "'\(LaunchText.escaped(entry.id))': asset is not valid: \(LaunchText.escaped(problems))" }
            return "'\(LaunchText.escaped(entry.id))': asset is not valid"
        case .assetNotCached:
            if case .failed(let problem, _) = assets[entry.assetURL] { return "'\(LaunchText.escaped(entry.id))': asset not cached: \(LaunchText.escaped(problem))" }
            if !downloading.contains(entry.assetURL), let full = capReached(adding: entry.assetURL) { return "'\(LaunchText.escaped(entry.id))': asset not cached: \(full)" }
            return "'\(LaunchText.escaped(entry.id))': asset not cached yet"
        default:
            return "'\(LaunchText.escaped(entry.id))': \(reason.rawValue)"
        }
    }

    /// The cached configuration when it comes from the configured URL.
    private var currentConfiguration: SplashConfiguration? {
        guard let configuration, configuration.url.absoluteString == parameters.configurationURL?.absoluteString else { return nil }
        return configuration
    }

    // MARK: Background work

    /// Fetch the configuration when it is missing or stale (`fetch`), delete assets no open or
    /// coming splash needs, and start downloads (soonest window first) up to the cap.
    private mutating func backgroundWork(at now: Date, fetch: Bool = true) -> [LaunchAction] {
        guard parameters.splashFlag == .on, let url = parameters.configurationURL else { return [] }
        var actions: [LaunchAction] = []
        let current = currentConfiguration
        if fetch, !fetchingConfiguration,
           current.map({ now.timeIntervalSince($0.fetchedAt) >= parameters.configurationRefreshSeconds || now < $0.fetchedAt }) ?? true {
            fetchingConfiguration = true
            actions.append(.fetchConfiguration(url))
        }
        guard let current else { return actions }
        let unneeded = assets.keys.filter { asset in
            !downloading.contains(asset) && (current.assetEnds[asset].map { $0 <= now } ?? true)
        }
        for asset in unneeded.sorted() {
            assets[asset] = nil
            assetBytes[asset] = nil
            actions.append(.deleteAsset(asset))
        }
        var slots = parameters.maxConcurrentDownloads - downloading.count
        guard slots > 0 else { return actions }
        for entry in current.entries {
            if entry.start.timeIntervalSince(now) > parameters.downloadAheadSeconds { break }
            guard entry.end > now, !downloading.contains(entry.assetURL) else { continue }
            switch assets[entry.assetURL] {
            case .valid, .invalid: continue
            case .failed(_, let at) where now.timeIntervalSince(at) < parameters.configurationRefreshSeconds && now >= at: continue
            case .failed, nil: break
            }
            guard capReached(adding: entry.assetURL) == nil else { break }
            downloading.insert(entry.assetURL)
            actions.append(.downloadAsset(entry.assetURL))
            slots -= 1
            if slots == 0 { break }
        }
        return actions
    }

    /// Why asset `url` may not be downloaded now (`maxAssets` known or downloading beside it, or
    /// `maxTotalBytes` without room for one more of `maxBytes` beside those downloading), or nil.
    private func capReached(adding url: String) -> String? {
        let others = assets.count + downloading.count - (assets[url] != nil ? 1 : 0)
        if others >= parameters.maxAssets {
            return "launch.splash.maxAssets (\(parameters.maxAssets)) assets are kept or downloading"
        }
        let kept = assetBytes.values.reduce(0, +)
        let reserved = (downloading.count + 1) * parameters.assetLimits.maxBytes
        if kept + reserved > parameters.maxTotalBytes {
            return "launch.splash.maxTotalBytes (\(parameters.maxTotalBytes)) has no room for another asset of up to launch.splash.maxBytes (\(parameters.assetLimits.maxBytes)) beside \(kept) bytes kept"
        }
        return nil
    }
}
