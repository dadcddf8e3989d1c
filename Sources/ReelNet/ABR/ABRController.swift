import Foundation
import Logging
import ReelCore
import ReelManifest

/// Performs the adaptive rule for one play of a master playlist (or a DASH MPD). It records the
/// variant of every segment the demuxer fetches; when the play can switch (`AdaptivePlaylist`),
/// the demuxer reads the Reel-owned playlist and, as it opens segment k, `openSegment` asks
/// `ABRPolicy` for k's variant (the meter's estimate and the plays sharing its link, the
/// last segment's throughput, the buffer from the player's playhead) and answers with that
/// variant's real segment, loading the variant's media playlist through the play's data sources
/// the first time; a variant whose segment fails or is not media gives way to the one before and
/// is excluded for the rest of the play. Thread-safe: the demuxer's thread calls in, the
/// player's threads attach and read the report.
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
    /// The session's download policy, when one gives this play's segments their turns.
    private let turns: (any SegmentTurns)?
    /// A play of a media playlist alone, with a controller only for its seat at the session's
    /// download policy: no adaptive report, and not one of the plays sharing the meter.
    public let seatOnly: Bool

    private struct State {
        var policy: ABRPolicy
        var playlists: [Int: MediaPlaylist]
        var decisions: [Int: Int] = [:]
        var report: ABRReport
        var lastThroughput: (bitsPerSecond: Int, at: Duration)?
        var probe: (@Sendable () -> ABRPlayhead)?
        var onSwitch: (@Sendable (ABRReport.Switch) -> Void)?
        /// Segments given their turn by the session's download policy and not arrived yet.
        var turned: [Int] = []
    }

    /// A controller for a play of `master` started on `ladder[start]`, whose media playlist is
    /// `played`. It switches when `constraints.adaptive` allows and `played` is switchable.
    init(master: URL, ladder: [ABRRung], variantURLs: [URL], names: [String], start: Int, played: MediaPlaylist,
         constraints: PlaybackConstraints, startEstimate: Int, factory: any DataSourceFactory,
         cancellation: Cancellation, log: RequestLog, limits: ManifestLimits, excluded: [Int: String] = [:], seatOnly: Bool = false) {
        self.master = master
        self.seatOnly = seatOnly
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
        var report = ABRReport(estimateKbps: (startEstimate + 500) / 1000, startEstimateKbps: (startEstimate + 500) / 1000,
                               startVariant: names[start], adaptive: switches)
        var policy = ABRPolicy(ladder: ladder, constraints: constraints, parameters: parameters, start: start)
        for (index, reason) in excluded.sorted(by: { $0.key < $1.key }) where names.indices.contains(index) {
            policy.exclude(index)
            report.excluded.append(ABRReport.Exclusion(variant: names[index], segment: nil, reason: reason))
        }
        state = Locked(State(policy: policy, playlists: [start: played], report: report))
        turns = factory.segmentTurns
        // Joined now: the demuxer opens the first segment before the player attaches.
        joinTurns()
    }

    /// Lets the rule see the player: `probe` says where it stands, `onSwitch` hears each switch
    /// (on the demuxer's thread).
    public func attach(probe: @escaping @Sendable () -> ABRPlayhead, onSwitch: @escaping @Sendable (ABRReport.Switch) -> Void) {
        state.withLock {
            $0.probe = probe
            $0.onSwitch = onSwitch
        }
        if !seatOnly { factory.bandwidthMeter?.join(self) { probe().playing } }
    }

    deinit {
        factory.bandwidthMeter?.leave(self)
        turns?.leave()
    }

    /// Joins the session's download policy, when there is one: the ladder this play may read
    /// (its start variant alone when it cannot switch), where it stands (once the player
    /// attaches; before, a play that has not started), what is cached, and a fill that fetches a
    /// segment into the cache ahead of the demuxer.
    private func joinTurns() {
        guard let turns else { return }
        let probe: @Sendable () -> ABRPlayhead? = { [weak self] in self?.state.withLock { $0.probe }?() }
        let cache = factory.cacheContext?.cache
        let bitrates = virtualPlaylist == nil
            ? ladder.indices.map { $0 == startVariant ? ladder[$0].bandwidth : 0 }
            : ladder.map(\.bandwidth)
        // A segment the cache can speak of: its variant's playlist is loaded.
        let loaded: @Sendable (Int, Int) -> DataSpec? = { [weak self] variant, segment in
            guard let self, cache != nil else { return nil }
            return try? self.loadedSpec(variant: variant, segment: segment)
        }
        let cached: @Sendable (Int, Int) -> Int? = { variant, segment in
            loaded(variant, segment).flatMap { cache?.completeBytes($0) }
        }
        let received: @Sendable (Int, Int) -> Int? = { variant, segment in
            loaded(variant, segment).flatMap { cache?.bytesInFlight(of: $0.cacheKey) }.map(Int.init)
        }
        let fill: @Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double) = { [weak self] variant, segment, cancellation in
            guard let self else { throw ReelError(.cancelled, "the play ended") }
            if let problem = self.load(variant) { throw problem.error }
            return try self.factory.fill(self.spec(variant: variant, segment: segment), cancellation: cancellation, log: self.log)
        }
        turns.join(ladder: bitrates, durations: durations, start: startVariant, probe: probe, cached: cached,
                   received: cache == nil ? nil : received, fill: cache == nil ? nil : fill)
    }

    /// Segment `segment` of `variant` when that variant's playlist is loaded (no fetch).
    private func loadedSpec(variant: Int, segment: Int) throws -> DataSpec? {
        guard state.withLock({ $0.playlists[variant] != nil }) else { return nil }
        return try spec(variant: variant, segment: segment)
    }

    /// The adaptive report a play's report carries: nil for a seat-only controller.
    public var playReport: ABRReport? { seatOnly ? nil : report }

    /// What the play did so far, with the meter's estimate now.
    public var report: ABRReport {
        var report = state.withLock { $0.report }
        if let meter = factory.bandwidthMeter { report.estimateKbps = meter.snapshot.estimateKbps }
        return report
    }

    /// Opens the segment behind a Reel-owned segment name with `open` (which opens a data source
    /// on a real segment and checks that what comes is media, throwing otherwise), on the variant
    /// chosen now (the same again when the demuxer reopens it). When the chosen variant's segment
    /// fails (after the transfer's own retries) or is not media, that variant is excluded for the
    /// rest of the play and the segment is taken from the variant of the segment before, which
    /// worked (else the nearest usable one: `ABRPolicy.fallback`); the report lists both. Returns
    /// nil for any other URL; throws the last failure when no variant is left. Blocking (it may
    /// load a variant's playlist): the demuxer's thread.
    public func openSegment<Opened>(_ address: String, open: (DataSpec) throws -> Opened) throws -> Opened? {
        guard let index = virtualIndex[address] else { return nil }
        let known = state.withLock { $0.decisions[index] }
        let previous = state.withLock { index == 0 ? $0.policy.current : $0.decisions[index - 1] ?? $0.policy.current }
        let chosen = known.map { ABRDecision(variant: $0, reason: .hold) } ?? choose(index, previous: previous)
        var variant = chosen.variant
        var failures: [(variant: Int, error: ReelError)] = []
        while true {
            do {
                // A variant the rule went on from when a fallback found nothing may be unloaded.
                if let problem = load(variant) { throw problem.error }
                let opened = try open(try spec(variant: variant, segment: index))
                if known == nil || !failures.isEmpty {
                    commit(index, variant: variant, reason: failures.isEmpty ? chosen.reason : .fallback, previous: previous,
                           failures: failures)
                }
                return opened
            } catch let error as ReelError where error.code != .cancelled && !cancellation.isCancelled {
                failures.append((variant, error))
                guard let next = fallback(from: variant, previous: previous, segment: index, error: error) else {
                    ReelLog.abr.info("segment \(index) of '\(master.absoluteString)' failed on every variant left: \(error.description)")
                    throw error
                }
                ReelLog.abr.info("segment \(index) of '\(names[variant])' failed (\(error.description)): taken from '\(names[next])', '\(names[variant])' excluded")
                variant = next
            }
        }
    }

    /// The rule's variant for segment `index` (not yet recorded): `previous` when the play
    /// cannot switch or a switch's playlist cannot be used.
    private func choose(_ index: Int, previous: Int) -> ABRDecision {
        guard let turns else { return ownChoice(index, previous: previous) }
        // The session's download policy says when, and at which variant (today's: the rule's own).
        let own = turns.grantsAsked ? ownChoice(index, previous: previous)
            : ABRDecision(variant: previous, reason: index == 0 ? .start : .hold)
        let variant = turns.turn(segment: index, previous: previous, proposed: own.variant, cancellation: cancellation)
        state.withLock { $0.turned.append(index) }
        guard ladder.indices.contains(variant), variant != own.variant else { return own }
        guard variant != previous else { return ABRDecision(variant: previous, reason: .hold) }
        if let problem = load(variant) {
            if problem.permanent {
                state.withLock { state in
                    state.policy.exclude(variant)
                    state.report.excluded.append(ABRReport.Exclusion(variant: names[variant], segment: index, reason: problem.reason))
                }
            }
            ReelLog.abr.info("not switching to '\(names[variant])': \(problem.reason)")
            return ABRDecision(variant: previous, reason: .hold)
        }
        return ABRDecision(variant: variant, reason: .scheduler)
    }

    /// The adaptive rule's own variant for segment `index`.
    private func ownChoice(_ index: Int, previous: Int) -> ABRDecision {
        guard index > 0 else { return ABRDecision(variant: previous, reason: .start) }
        let playhead = state.withLock { $0.probe }?()
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
        var decision = state.withLock { $0.policy.decide(input) }
        ReelLog.abr.trace("segment \(index): estimate \(input.estimate / 1000) kbps, latency \(Int(input.latency.milliseconds)) ms, last segment \(input.lastThroughput.map { "\($0 / 1000) kbps" } ?? "none"), buffered \(input.buffered.map { "\($0.milliseconds) ms" } ?? "not playing"), \(input.sharers) on the link, stalls \(input.stalls): \(decision.reason.rawValue) \(decision.variant)")
        if decision.variant != previous, let problem = load(decision.variant) {
            state.withLock { state in
                state.policy.reject(decision.variant, back: previous, permanently: problem.permanent)
                if problem.permanent {
                    state.report.excluded.append(ABRReport.Exclusion(variant: names[decision.variant], segment: index,
                                                                     reason: problem.reason))
                }
            }
            ReelLog.abr.info("not switching to '\(names[decision.variant])': \(problem.reason)")
            decision = ABRDecision(variant: previous, reason: .hold)
        }
        return decision
    }

    /// Variant `failed` could not give segment `index`: excluded, and the variant to take the
    /// segment from instead (its playlist loaded and lined up), or nil when none is left.
    private func fallback(from failed: Int, previous: Int, segment index: Int, error: ReelError) -> Int? {
        var excluding = (variant: failed, reason: error.description)
        while true {
            let candidate = state.withLock { state in
                // A variant tried again after nothing was left is listed once.
                if !state.report.excluded.contains(where: { $0.variant == names[excluding.variant] }) {
                    state.report.excluded.append(ABRReport.Exclusion(variant: names[excluding.variant], segment: index,
                                                                     reason: excluding.reason))
                }
                return state.policy.fallback(from: excluding.variant, previous: previous)
            }
            guard let next = candidate else { return nil }
            guard let problem = load(next) else { return next }
            excluding = (next, problem.reason)
        }
    }

    /// Records that segment `index` came from `variant` (replacing an earlier record of it), the
    /// fallbacks on the way, and a switch when `variant` is not `previous`'s; tells the listener.
    private func commit(_ index: Int, variant: Int, reason: ABRDecision.Reason, previous: Int,
                        failures: [(variant: Int, error: ReelError)]) {
        let (change, listener) = state.withLock { state -> (ABRReport.Switch?, (@Sendable (ABRReport.Switch) -> Void)?) in
            state.decisions[index] = variant
            state.report.segments.removeAll { $0.index == index }
            state.report.segments.append(segment(index, variant: variant))
            state.report.switches.removeAll { $0.segment == index }
            for failure in failures {
                state.report.fallbacks.append(ABRReport.Fallback(segment: index, from: names[failure.variant], to: names[variant],
                                                                 reason: failure.error.description))
            }
            guard variant != previous else { return (nil, nil) }
            let change = ABRReport.Switch(segment: index, from: names[previous], to: names[variant], reason: reason.rawValue)
            state.report.switches.append(change)
            return (change, state.onSwitch)
        }
        if let change {
            ReelLog.abr.debug("segment \(index) of '\(master.absoluteString)': \(change.reason) from '\(change.from)' to '\(change.to)'")
            listener?(change)
        }
    }

    /// A segment of the played playlist was opened (a play that does not switch): recorded.
    public func opened(_ spec: DataSpec) {
        guard virtualPlaylist == nil, let index = segmentIndex[spec.cacheKey] else { return }
        if let turns, state.withLock({ $0.decisions[index] == nil }) {
            _ = turns.turn(segment: index, previous: startVariant, proposed: startVariant, cancellation: cancellation)
            state.withLock { $0.turned.append(index) }
        }
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
        if let turns, let index = arrivedTurn(metrics.url) {
            turns.arrived(segment: index, bytes: Int(metrics.bytes - metrics.cacheHitBytes), seconds: metrics.totalMs / 1000)
        }
        let body = metrics.totalMs - metrics.firstByteMs
        guard metrics.cacheHitBytes == 0, metrics.bytes > 0, body > 0 else { return }
        let throughput = Int(Double(metrics.bytes) * 8000 / body)
        let now = ContinuousClock.now - began
        state.withLock { $0.lastThroughput = (throughput, now) }
    }

    /// The oldest segment given its turn and not arrived, when `url` is that segment's (at any
    /// variant): taken off the list.
    private func arrivedTurn(_ url: String) -> Int? {
        state.withLock { state in
            guard let index = state.turned.first,
                  state.playlists.values.contains(where: { $0.segments.indices.contains(index) && $0.segments[index].resolvedURL.absoluteString == url })
            else { return nil }
            state.turned.removeFirst()
            return index
        }
    }

    private func segment(_ index: Int, variant: Int) -> ABRReport.Segment {
        ABRReport.Segment(index: index, variant: names[variant], kbps: (ladder[variant].bandwidth + 500) / 1000,
                          seconds: durations[index])
    }

    private func spec(variant: Int, segment index: Int) throws -> DataSpec {
        guard let playlist = state.withLock({ $0.playlists[variant] }), index < playlist.segments.count else {
            throw ReelError(.internalFailure, "no segment \(index) of '\(names[variant])' for '\(master.absoluteString)'")
        }
        // What CMCD says of it: its variant's bitrate, its duration and the next segment.
        var hints = CMCDHints()
        hints.bitrateKbps = ladder[variant].bandwidth > 0 ? ladder[variant].bandwidth / 1000 : nil
        hints.topBitrateKbps = ladder.map(\.bandwidth).max().map { $0 / 1000 }
        hints.durationMs = Int((playlist.segments[index].duration * 1000).rounded())
        if index + 1 < playlist.segments.count { hints.nextObject = playlist.segments[index + 1].uri }
        return playlist.segments[index].dataSpec.with(hints)
    }

    /// What keeps a variant's media playlist from being used: the error (its code the cause's:
    /// `offline` for a host gone offline, which no failure budget counts), and whether the
    /// variant can never be switched to.
    private struct LoadProblem {
        var error: ReelError
        var permanent: Bool
        var reason: String { error.description }
    }

    /// Loads variant `index`'s media playlist when not loaded yet; what is wrong with it, if
    /// anything.
    private func load(_ index: Int) -> LoadProblem? {
        if state.withLock({ $0.playlists[index] != nil }) { return nil }
        let url = variantURLs[index]
        let playlist: MediaPlaylist
        do {
            let bytes = try factory.fetch(DataSpec(url: url, kind: .playlist), cancellation: cancellation,
                                          limit: limits.maxPlaylistBytes, log: log)
            guard case .media(let media) = try ManifestLoader.parse(Data(bytes), url: url, limits: limits) else {
                return LoadProblem(error: ReelError(.malformedPlaylist, "'\(url.absoluteString)' is not a media playlist"), permanent: true)
            }
            let policy = URLPolicy(allowLocalFiles: master.isFileURL)
            for segment in media.segments { try policy.check(segment.resolvedURL, in: url) }
            playlist = media
        } catch let error as ReelError {
            // A host that cannot be reached is a failed variant, as a playlist that is not there.
            let permanent = error.code.area == .parsing || error.code == .forbiddenURL || error.code == .notFound
                || NetworkReachability.meansUnreachable(error)
            return LoadProblem(error: error, permanent: permanent)
        } catch {
            return LoadProblem(error: ReelError(.networkFailed, "loading '\(url.absoluteString)' failed: \(error)"), permanent: false)
        }
        let played = state.withLock { $0.playlists[startVariant] }
        if let played, let problem = AdaptivePlaylist.misalignment(of: playlist, with: played) {
            return LoadProblem(error: ReelError(.malformedPlaylist, "'\(url.absoluteString)' does not line up: \(problem)"), permanent: true)
        }
        state.withLock { $0.playlists[index] = playlist }
        return nil
    }
}
