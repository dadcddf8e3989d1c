import Foundation
import Logging
import ReelCore
import ReelManifest

/// Performs the adaptive rule for one play of a master playlist (or a DASH MPD). It records the
/// variant of every segment the demuxer fetches; when the play can switch (`AdaptivePlaylist`),
/// the demuxer reads the Reel-owned playlist and, as it opens segment k, `segmentSpec(for:)`
/// asks `ABRPolicy` for k's variant (the meter's estimate and the plays sharing its link, the
/// last segment's throughput, the buffer from the player's playhead) and answers with that
/// variant's real segment, loading the variant's media playlist through the play's data sources
/// the first time. Thread-safe: the demuxer's thread calls in, the player's threads attach and
/// read the report.
public final class ABRController: Sendable {
    public let master: URL
    /// Each ladder variant's name in reports: its media playlist URL (DASH: the MPD's, with
    /// `#<representation id>`).
    public let names: [String]
    /// The playlist text FFmpeg reads when the play can switch; nil when it cannot.
    public let virtualPlaylist: [UInt8]?
    private let ladder: [ABRRung]
    private let variantURLs: [URL]
    private let factory: any DataSourceFactory
    private let cancellation: Cancellation
    private let log: RequestLog
    private let limits: ManifestLimits
    private let starts: [Double]
    private let durations: [Double]
    /// The variant the play started on: the playlist FFmpeg reads is its.
    private let startVariant: Int
    /// The estimate the start was chosen with: the rule's figure when no meter is at hand.
    private let startEstimate: Int
    private let virtualIndex: [String: Int]
    private let segmentIndex: [String: Int]
    private let began = ContinuousClock.now
    private let state: Locked<State>

    private struct State {
        var policy: ABRPolicy
        var playlists: [Int: MediaPlaylist]
        var decisions: [Int: Int] = [:]
        var report: ABRReport
        var lastThroughput: (bitsPerSecond: Int, at: Duration)?
        var probe: (@Sendable () -> ABRPlayhead)?
        var onSwitch: (@Sendable (ABRReport.Switch) -> Void)?
    }

    /// A controller for a play of `master` started on `ladder[start]`, whose media playlist is
    /// `played`. It switches when `constraints.adaptive` allows and `played` is switchable.
    init(master: URL, ladder: [ABRRung], variantURLs: [URL], names: [String], start: Int, played: MediaPlaylist,
         constraints: PlaybackConstraints, startEstimate: Int, factory: any DataSourceFactory,
         cancellation: Cancellation, log: RequestLog, limits: ManifestLimits) {
        self.master = master
        self.ladder = ladder
        self.variantURLs = variantURLs
        self.names = names
        self.factory = factory
        self.cancellation = cancellation
        self.log = log
        self.limits = limits
        durations = played.segments.map(\.duration)
        var starts: [Double] = []
        var time = 0.0
        for duration in durations {
            starts.append(time)
            time += duration
        }
        self.starts = starts
        startVariant = start
        self.startEstimate = startEstimate
        var parameters = constraints.adaptive ?? ABRParameters(switching: false)
        let switches = parameters.switching && ladder.count > 1 && AdaptivePlaylist.unswitchable(played) == nil
        parameters.switching = switches
        virtualPlaylist = switches ? Array(AdaptivePlaylist.render(played, master: master).utf8) : nil
        virtualIndex = switches
            ? Dictionary(uniqueKeysWithValues: played.segments.enumerated().map {
                (AdaptivePlaylist.virtualURL(master: master, segment: $0, like: $1.resolvedURL), $0)
            })
            : [:]
        segmentIndex = Dictionary(played.segments.enumerated().map { ($1.dataSpec.cacheKey, $0) }) { first, _ in first }
        let report = ABRReport(estimateKbps: (startEstimate + 500) / 1000, startEstimateKbps: (startEstimate + 500) / 1000,
                               startVariant: names[start], adaptive: switches)
        state = Locked(State(policy: ABRPolicy(ladder: ladder, constraints: constraints, parameters: parameters, start: start),
                             playlists: [start: played], report: report))
    }

    /// Lets the rule see the player: `probe` says where it stands, `onSwitch` hears each switch
    /// (on the demuxer's thread).
    public func attach(probe: @escaping @Sendable () -> ABRPlayhead, onSwitch: @escaping @Sendable (ABRReport.Switch) -> Void) {
        state.withLock {
            $0.probe = probe
            $0.onSwitch = onSwitch
        }
        factory.bandwidthMeter?.join(self) { probe().playing }
    }

    deinit {
        factory.bandwidthMeter?.leave(self)
    }

    /// What the play did so far, with the meter's estimate now.
    public var report: ABRReport {
        var report = state.withLock { $0.report }
        if let meter = factory.bandwidthMeter { report.estimateKbps = meter.snapshot.estimateKbps }
        return report
    }

    /// The real segment behind a Reel-owned segment name, chosen now (the same again when the
    /// demuxer reopens it); nil for any other URL. Blocking (it may load a variant's playlist):
    /// the demuxer's thread.
    public func segmentSpec(for address: String) throws -> DataSpec? {
        guard let index = virtualIndex[address] else { return nil }
        if let known = state.withLock({ $0.decisions[index] }) { return try spec(variant: known, segment: index) }
        let probe = state.withLock { $0.probe }
        let playhead = probe?()
        let previous = index == 0 ? state.withLock { $0.policy.current } : state.withLock { $0.decisions[index - 1] ?? $0.policy.current }
        var decision = ABRDecision(variant: previous, reason: index == 0 ? .start : .hold)
        if index > 0 {
            let now = ContinuousClock.now - began
            let (last, maxAge) = state.withLock { ($0.lastThroughput, $0.policy.parameters.throughputMaxAge) }
            let moving = playhead?.playing == true
            let meter = factory.bandwidthMeter
            let input = ABRInput(
                segment: index, segmentDuration: .seconds(durations[index]),
                buffered: moving ? playhead?.position.map { .seconds(starts[index]) - $0 } : nil, stalls: playhead?.stalls ?? 0,
                estimate: meter?.bitsPerSecond ?? startEstimate,
                lastThroughput: last.flatMap { now - $0.at <= maxAge ? $0.bitsPerSecond : nil },
                latency: meter?.latency ?? .zero, sharers: meter?.playing ?? 1, now: now)
            decision = state.withLock { $0.policy.decide(input) }
            ReelLog.abr.trace("segment \(index): estimate \(input.estimate / 1000) kbps, latency \(Int(input.latency.milliseconds)) ms, last segment \(input.lastThroughput.map { "\($0 / 1000) kbps" } ?? "none"), buffered \(input.buffered.map { "\($0.milliseconds) ms" } ?? "not playing"), \(input.sharers) on the link, stalls \(input.stalls): \(decision.reason.rawValue) \(decision.variant)")
            if decision.variant != previous, let problem = load(decision.variant) {
                state.withLock { $0.policy.reject(decision.variant, back: previous, permanently: problem.permanent) }
                ReelLog.abr.info("not switching to '\(names[decision.variant])': \(problem.reason)")
                decision = ABRDecision(variant: previous, reason: .hold)
            }
        }
        let chosen = decision
        let spec = try spec(variant: chosen.variant, segment: index)
        let (change, listener) = state.withLock { state -> (ABRReport.Switch?, (@Sendable (ABRReport.Switch) -> Void)?) in
            state.decisions[index] = chosen.variant
            state.report.segments.append(segment(index, variant: chosen.variant))
            guard chosen.variant != previous else { return (nil, nil) }
            let change = ABRReport.Switch(segment: index, from: names[previous], to: names[chosen.variant], reason: chosen.reason.rawValue)
            state.report.switches.append(change)
            return (change, state.onSwitch)
        }
        if let change {
            ReelLog.abr.debug("segment \(index) of '\(master.absoluteString)': \(change.reason) from '\(change.from)' to '\(change.to)'")
            listener?(change)
        }
        return spec
    }

    /// A segment of the played playlist was opened (a play that does not switch): recorded.
    public func opened(_ spec: DataSpec) {
        guard virtualPlaylist == nil, let index = segmentIndex[spec.cacheKey] else { return }
        state.withLock { state in
            guard state.decisions[index] == nil else { return }
            state.decisions[index] = state.policy.current
            state.report.segments.append(segment(index, variant: state.policy.current))
        }
    }

    /// A segment's fetch ended with `metrics`: one fetched whole from the network tells the rule
    /// what the network gives now, its bytes over the time from its first byte (its latency is
    /// the meter's to estimate).
    public func fetched(_ metrics: TransferMetrics) {
        let body = metrics.totalMs - metrics.firstByteMs
        guard metrics.cacheHitBytes == 0, metrics.bytes > 0, body > 0 else { return }
        let throughput = Int(Double(metrics.bytes) * 8000 / body)
        let now = ContinuousClock.now - began
        state.withLock { $0.lastThroughput = (throughput, now) }
    }

    private func segment(_ index: Int, variant: Int) -> ABRReport.Segment {
        ABRReport.Segment(index: index, variant: names[variant], kbps: (ladder[variant].bandwidth + 500) / 1000,
                          seconds: durations[index])
    }

    private func spec(variant: Int, segment index: Int) throws -> DataSpec {
        guard let playlist = state.withLock({ $0.playlists[variant] }), index < playlist.segments.count else {
            throw ReelError(.internalFailure, "no segment \(index) of '\(names[variant])' for '\(master.absoluteString)'")
        }
        return playlist.segments[index].dataSpec
    }

    /// Loads variant `index`'s media playlist when not loaded yet; what is wrong with it, if
    /// anything (`permanent` when it can never be switched to).
    private func load(_ index: Int) -> (reason: String, permanent: Bool)? {
        if state.withLock({ $0.playlists[index] != nil }) { return nil }
        let url = variantURLs[index]
        let playlist: MediaPlaylist
        do {
            let bytes = try factory.fetch(DataSpec(url: url, kind: .playlist), cancellation: cancellation,
                                          limit: limits.maxPlaylistBytes, log: log)
            guard case .media(let media) = try ManifestLoader.parse(Data(bytes), url: url, limits: limits) else {
                return ("'\(url.absoluteString)' is not a media playlist", true)
            }
            let policy = URLPolicy(allowLocalFiles: master.isFileURL)
            for segment in media.segments { try policy.check(segment.resolvedURL, in: url) }
            playlist = media
        } catch let error as ReelError {
            let permanent = error.code.area == .parsing || error.code == .forbiddenURL || error.code == .notFound
            return (error.description, permanent)
        } catch {
            return ("\(error)", false)
        }
        let played = state.withLock { $0.playlists[startVariant] }
        if let played, let problem = AdaptivePlaylist.misalignment(of: playlist, with: played) {
            return (problem, true)
        }
        state.withLock { $0.playlists[index] = playlist }
        return nil
    }
}
