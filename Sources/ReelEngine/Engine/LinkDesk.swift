import Foundation
import Logging
import ReelCore
import ReelFeed
import ReelNet
import Synchronization

/// The session's link under one download policy (`scheduler.policy=scheduler`): every play with
/// a ladder joins through its `Seat`, its demuxer asks for a turn before each segment, and the
/// desk asks the policy with the plays as a `LinkState` (the playing ones first, then in the
/// feed's preload order). A segment the policy asks for goes to its play when the demuxer waits
/// at it, else is fetched into the cache ahead of the demuxer (a fill); at most
/// `scheduler.maxTransfers` are on the link at once. Prefetch jobs take seats too: under today's
/// policy every segment is granted as its reader asks; under the link scheduler a job reads the
/// card's manifests and init section and leaves its seat behind, and the scheduler fills the
/// segments it wants of the card until the card leaves the preload order or mounts.
/// docs/download-wiring.md.
///
/// The policy is asked on the thread that asks for a turn, under the desk's lock (a decision
/// takes microseconds); demuxer threads wait on the desk's condition, at most `poll` at a time,
/// so a cancelled play never hangs.
package final class LinkDesk: @unchecked Sendable {  // every mutable field is read and written under `condition`'s lock
    private let condition = NSCondition()
    private var policy: any DownloadPolicy
    private let meter: BandwidthMeter?
    private let maxTransfers: Int
    private let began = ContinuousClock.now
    private let poll: Duration = .milliseconds(100)
    private var plays: [Int: Play] = [:]
    private var nextSeat = 0
    /// The feed's preload order (the coordinator's queue: urgent first, then by rank), and the
    /// cards in it the user is about to see.
    private var order: [String] = []
    private var urgent: Set<String> = []
    /// The cards the play rules granted: a player's play counts as playing from its grant, as in
    /// the simulation, though its probe says so only once frames flow (before its first segment
    /// opens it has no probe at all, and a play waiting for its first segment ranked behind the
    /// cards ahead could wait for a turn while the link idled). Each with the media second where
    /// its play stops by itself (a preview's limit), if it does.
    private var granted: [String: Double?] = [:]
    /// When the policy asked to be asked again.
    private var wake: ContinuousClock.Instant?
    /// Something a waiting reader looks for changed at this step (a turn granted, a seat gone,
    /// the policy's wake moved earlier): the waiters are woken once it ends. Waking them at every
    /// step instead had each waiter's step wake the others, thousands of steps a second.
    private var waitersWanted = false
    /// How many times the waiting readers were woken.
    package var wakeUps: Int { locked { woken } }
    private var woken = 0
    /// Seats that left, taken in at the desk's next step under its lock. A play's controller can
    /// go away on a thread that holds the lock (its last reference dropped by a probe or a cache
    /// test the desk called), so leaving never waits for the lock.
    private let departures = Mutex<[Int]>([])
    /// Thumbnails waiting for the policy's turn, by ticket: each card's, with its expected bytes,
    /// and whether the policy granted it (its waiter then goes).
    private var thumbnails: [Int: (card: String, bytes: Int, granted: Bool)] = [:]
    private var nextTicket = 0
    /// The session ended: waiting thumbnails are not fetched.
    private var closed = false
    /// Who hears how many playing cards the link carries, and what it heard last.
    private var reportCarries: (@Sendable (Int?) -> Void)?
    private var carried: Int?

    /// One play as the desk keeps it.
    private struct Play {
        let card: String
        /// A prefetch job's seat (a card without a player), not a player's.
        let prefetch: Bool
        /// Controller variant indices of the ladder the policy sees, lowest bitrate first.
        var ladder: [Int]
        var bitrates: [Int]
        var durations: [Double]
        var probe: @Sendable () -> ABRPlayhead?
        var cached: @Sendable (Int, Int) -> Int?
        /// The bytes arrived of a segment on its way (nil: the play cannot tell).
        var received: (@Sendable (Int, Int) -> Int?)?
        var fill: (@Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double))?
        /// Ladder positions of the segments fetched or on their way, from the first.
        var variants: [Int] = []
        /// Segments handed to the demuxer and on the link.
        var reading: Set<Int> = []
        /// Segments being filled into the cache.
        var filling: Set<Int> = []
        /// When each segment reading or filling went on the link.
        var sent: [Int: ContinuousClock.Instant] = [:]
        /// The segment the demuxer waits at, and the controller variant its own rule chose.
        var waiting: Int?
        var proposed = 0
        /// Stops the play's fills when it leaves.
        let cancellation = Cancellation()

        /// A play whose manifest names no bitrate (a media playlist alone) learns it from its
        /// first segment that came over the link or lay whole in the cache: without it the
        /// policy sees segments of no bytes, due only a latency before they play (a carousel
        /// card whose first segment was prefetched stalled at its second on 4g).
        mutating func learnBitrate(segment: Int, bytes: Int) {
            guard bitrates == [0], bytes > 0, durations.indices.contains(segment), durations[segment] > 0 else { return }
            bitrates = [Int(Double(bytes) * 8 / durations[segment])]
        }
    }

    /// Whether the policy grants what each reader asks (today's): players then ask their
    /// adaptive rule first, and prefetch jobs ask for each segment they plan.
    package let grantsAsked: Bool

    package init(policy: any DownloadPolicy, meter: BandwidthMeter?, maxTransfers: Int) {
        self.policy = policy
        grantsAsked = policy.readsOnlyAsks
        self.meter = meter
        self.maxTransfers = max(1, maxTransfers)
    }

    /// The desk for `config`'s `scheduler.policy`.
    package static func make(_ config: ReelConfig, meter: BandwidthMeter?) -> LinkDesk {
        LinkDesk(policy: DownloadPolicies.make(config), meter: meter, maxTransfers: DownloadPolicies.maxTransfers(config))
    }

    /// A seat for the next play of `card`, or for a prefetch job of it.
    package func seat(card: String, prefetch: Bool = false) -> Seat {
        locked {
            nextSeat += 1
            return Seat(desk: self, id: nextSeat, card: card, prefetch: prefetch)
        }
    }

    /// The feed's preload order changed: the cards the user may reach, nearest first, and
    /// whether each is about to be seen. Under a policy that fills, a prefetch seat whose card
    /// left the order leaves.
    package func setOrder(_ cards: [(card: String, urgent: Bool)]) {
        locked {
            let names = cards.map(\.card)
            let urgentNow = Set(cards.filter(\.urgent).map(\.card))
            guard names != order || urgentNow != urgent else { return }
            order = names
            urgent = urgentNow
            if !grantsAsked {
                let wanted = Set(names)
                for (id, play) in plays where play.prefetch && !wanted.contains(play.card) { remove(id) }
            }
            decide()
        }
    }

    /// `report` hears how many playing cards the link carries whenever the policy's answer
    /// changes (asked while several play or while it carries fewer).
    package func onCarries(_ report: @escaping @Sendable (Int?) -> Void) {
        locked { reportCarries = report }
    }

    /// Waits for the policy's turn to fetch the thumbnail of `card` (about `bytes`), as the
    /// simulation's thumbnails wait: a card's thumbnail behind every start as near as the card,
    /// one on screen before them all (`LinkScheduler`). At once under a policy that grants what
    /// is asked. False when the session ended or the task was cancelled first: the thumbnail is
    /// not fetched. Like a demuxer waiting for a turn, it asks the policy again every `poll`.
    package func thumbnailTurn(card: String, bytes: Int) async -> Bool {
        guard !grantsAsked else { return true }
        let ticket = locked { () -> Int in
            nextTicket += 1
            thumbnails[nextTicket] = (card, bytes, false)
            decide()
            return nextTicket
        }
        while true {
            let (granted, gone) = locked { (thumbnails[ticket]?.granted == true, closed || Task.isCancelled) }
            if granted || gone {
                locked { _ = thumbnails.removeValue(forKey: ticket) }
                return granted
            }
            try? await Task.sleep(for: poll)
            locked { decide() }
        }
    }

    /// The session ends: thumbnails still waiting for a turn are not fetched.
    package func close() {
        locked { closed = true }
    }

    /// Asks the policy how many of the playing plays in `state` the link carries and reports a
    /// change. Under the lock; `report` only yields to the engine's inbox.
    private func askCarries(_ state: LinkState) {
        guard let reportCarries, let change = policy.carriesChange(state, told: carried) else { return }
        carried = change
        reportCarries(change)
    }

    /// The cards the play rules granted changed, each with where its play stops by itself.
    package func setPlaying(_ cards: [String: Double?]) {
        locked {
            guard cards != granted else { return }
            granted = cards
            decide()
        }
    }

    /// Lets seat `id` go: its fills stop, its waiting reader goes on. Under the lock.
    private func remove(_ id: Int) {
        plays.removeValue(forKey: id)?.cancellation.cancel()
        waitersWanted = true
    }

    /// One play's place at the desk.
    package struct Seat: SegmentTurns {
        let desk: LinkDesk
        let id: Int
        let card: String
        let prefetch: Bool

        package var grantsAsked: Bool { desk.grantsAsked }

        package func join(ladder: [Int], durations: [Double], start: Int, probe: @escaping @Sendable () -> ABRPlayhead?,
                          cached: @escaping @Sendable (Int, Int) -> Int?, received: (@Sendable (Int, Int) -> Int?)?,
                          fill: (@Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double))?) {
            let positions = ladder.indices.filter { ladder[$0] > 0 || $0 == start }.sorted { ladder[$0] < ladder[$1] }
            // What the cache holds already (fetched for this card's prefetch seat or an earlier
            // play), read before taking the lock; nothing under a policy that grants what is asked.
            let held = desk.grantsAsked ? [] : LinkDesk.cachedPrefix(positions: positions, start: start, segments: durations.count,
                                                                       cached: cached)
            desk.locked {
                // A card's player, or a newer prefetch job of it, takes over from its prefetch seat.
                for (other, play) in desk.plays where play.prefetch && play.card == card { desk.remove(other) }
                var play = Play(card: card, prefetch: prefetch, ladder: positions, bitrates: positions.map { ladder[$0] },
                                durations: durations, probe: probe, cached: cached, received: received, fill: fill)
                play.variants = held.map(\.position)
                if let first = held.first { play.learnBitrate(segment: 0, bytes: first.bytes) }
                desk.plays[id] = play
                desk.decide()
            }
        }

        package func turn(segment index: Int, previous: Int, proposed: Int, cancellation: Cancellation) -> Int {
            desk.turn(id, segment: index, proposed: proposed, cancellation: cancellation)
        }

        package func arrived(segment index: Int, bytes: Int, seconds: Double) {
            desk.locked {
                guard var play = desk.plays[id], play.reading.remove(index) != nil else { return }
                play.sent[index] = nil
                desk.heard(&play, segment: index, bytes: bytes, seconds: seconds)
                desk.plays[id] = play
                desk.decide()
            }
        }

        package func leave() {
            desk.departures.withLock { $0.append(id) }
            // Waiting readers take the departure in (and the policy is asked again) at once.
            desk.condition.broadcast()
        }
    }

    /// The ladder positions of the segments whole in the cache from the first on: each at the
    /// variant of the one before if it is there (the start variant for the first), else at the
    /// lowest bitrate that is. A play joins with them as downloaded, as the simulation counts a
    /// video's cached segments: a seat that began empty had the policy fetch its first segment
    /// again, at the variant of its plan then, while the demuxer's start variant lay in the cache
    /// (a card scrolled back to, a start the card's prefetch seat filled). Only the variants whose
    /// media playlist the play has loaded can say. Each with its bytes in the cache.
    static func cachedPrefix(positions: [Int], start: Int, segments: Int,
                             cached: (Int, Int) -> Int?) -> [(position: Int, bytes: Int)] {
        var held: [(position: Int, bytes: Int)] = []
        var previous = start
        while held.count < segments {
            let segment = held.count
            let order = [previous] + positions.filter { $0 != previous }
            var found: (variant: Int, bytes: Int)?
            for variant in order {
                if let bytes = cached(variant, segment) {
                    found = (variant, bytes)
                    break
                }
            }
            guard let found, let position = positions.firstIndex(of: found.variant) else { break }
            held.append((position, found.bytes))
            previous = found.variant
        }
        return held
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        takeDepartures()
        return body()
    }

    /// Lets the seats that left go. Under the lock.
    private func takeDepartures() {
        for id in departures.withLock({ list in defer { list.removeAll() }; return list }) { remove(id) }
    }

    private func turn(_ id: Int, segment index: Int, proposed: Int, cancellation: Cancellation) -> Int {
        condition.lock()
        defer { condition.unlock() }
        takeDepartures()
        guard var play = plays[id] else { return proposed }
        // Fetched already (a fill, or handed out ahead): read it from the cache (a fill on its
        // way is followed to its end by the cache).
        if index < play.variants.count { return play.ladder[play.variants[index]] }
        let position = play.ladder.firstIndex(of: proposed) ?? 0
        // Whole in the cache at the variant its own rule chose: no turn on the link needed.
        if let bytes = play.cached(proposed, index) {
            play.learnBitrate(segment: index, bytes: bytes)
            play.variants += Array(repeating: position, count: index + 1 - play.variants.count)
            plays[id] = play
            decide()
            return proposed
        }
        // A segment skipped (a seek): those before count as read.
        if index > play.variants.count { play.variants += Array(repeating: position, count: index - play.variants.count) }
        play.waiting = index
        play.proposed = proposed
        plays[id] = play
        decide()
        while !cancellation.isCancelled, let play = plays[id] {
            if play.waiting == nil, play.variants.indices.contains(index) { return play.ladder[play.variants[index]] }
            let until = min(ContinuousClock.now + poll, wake ?? .now + poll)
            let woken = condition.wait(until: Date(timeIntervalSinceNow: max(0.001, (until - .now).seconds)))
            // Woken by another step: look at what it granted, and step only for a seat that left.
            // At the policy's time or the poll: step.
            if !woken || departures.withLock({ !$0.isEmpty }) { decide() }
        }
        plays[id]?.waiting = nil
        return proposed
    }

    /// The places on the link taken among `maxTransfers`: every fill, and the segments handed to
    /// the demuxers of granted plays. A paused player's demuxer rests once its buffer is full, in
    /// the middle of a segment if need be, and that transfer then moves nothing: counted, three
    /// paused carousel cards held every place while the playing short ran dry (15 s in a
    /// real-time session). Under the lock.
    private var placesTaken: Int {
        plays.values.reduce(0) { taken, play in
            taken + play.filling.count + (!play.prefetch && granted.keys.contains(play.card) ? play.reading.count : 0)
        }
    }

    /// Asks the policy while fewer than `maxTransfers` places on the link are taken, and performs
    /// its answers. Under the lock.
    private func decide() {
        let wakeBefore = wake
        defer {
            if let wake, wakeBefore.map({ wake < $0 }) ?? true { waitersWanted = true }
            if waitersWanted {
                waitersWanted = false
                woken += 1
                condition.broadcast()
            }
        }
        takeDepartures()
        // Under a policy that decides, the state is built first to ask what the link carries,
        // and serves the first decision too.
        var built = reportCarries != nil && !grantsAsked ? linkState() : nil
        if let built { askCarries(built.0) }
        var asked = 0
        while placesTaken < policy.transfers(within: maxTransfers), asked < 32 {
            asked += 1
            let (state, seats) = built ?? linkState()
            built = nil
            guard !state.videos.isEmpty || !state.thumbnails.isEmpty else {
                wake = nil
                return
            }
            switch policy.decide(state) {
            case .wait(let until):
                // Today's waits for the next play that asks.
                wake = until.isFinite ? began + .seconds(max(0, until)) : nil
                return
            case .fetchThumbnail(let card):
                // Its waiter goes; a thumbnail takes no place among `maxTransfers`.
                guard let ticket = thumbnails.filter({ $0.value.card == card && !$0.value.granted }).keys.min() else {
                    wake = .now + poll
                    return
                }
                thumbnails[ticket]?.granted = true
            case .fetch(let request):
                guard let id = seats[request.video], var play = plays[id], request.segment == play.variants.count,
                      play.ladder.indices.contains(request.variant), request.segment < play.durations.count else {
                    wake = .now + poll
                    return
                }
                play.variants.append(request.variant)
                if play.waiting == request.segment {
                    play.waiting = nil
                    play.reading.insert(request.segment)
                    play.sent[request.segment] = .now
                    waitersWanted = true
                } else if let fill = play.fill {
                    play.filling.insert(request.segment)
                    play.sent[request.segment] = .now
                    startFill(id, fill: fill, variant: play.ladder[request.variant], segment: request.segment,
                              cancellation: play.cancellation)
                }
                // Without a cache the demuxer reads it when it comes to it (handed out ahead).
                plays[id] = play
            }
        }
        // Every place taken: an arrival or a fill's end asks again (a wake left from an earlier
        // answer, passed, would have the waiters step every millisecond meanwhile).
        wake = nil
    }

    /// A segment of `play` came over the link (read by its demuxer or filled into the cache):
    /// the play learns its bitrate if it had none, and the policy hears its bytes and time.
    /// Under the lock.
    private func heard(_ play: inout Play, segment: Int, bytes: Int, seconds: Double) {
        play.learnBitrate(segment: segment, bytes: bytes)
        guard bytes > 0, play.variants.indices.contains(segment) else { return }
        policy.downloaded(SegmentRequest(video: play.card, segment: segment, variant: play.variants[segment]), bytes: bytes,
                          seconds: seconds)
    }

    /// Fetches segment `segment` at controller variant `variant` into the cache on a blocking
    /// thread; its arrival frees its place on the link and teaches the policy.
    private func startFill(_ id: Int, fill: @escaping @Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double),
                           variant: Int, segment: Int, cancellation: Cancellation) {
        BlockingPool.shared.start { [self] in
            let result = Result { try fill(variant, segment, cancellation) }
            locked {
                guard var play = plays[id], play.filling.remove(segment) != nil else { return }
                play.sent[segment] = nil
                switch result {
                case .success(let fetched):
                    // Served whole from the cache: nothing for the policy, the bitrate for the play.
                    if fetched.bytes == 0, let bytes = play.cached(variant, segment) { play.learnBitrate(segment: segment, bytes: bytes) }
                    heard(&play, segment: segment, bytes: fetched.bytes, seconds: fetched.seconds)
                case .failure(let error):
                    // The demuxer asks for it again when it comes to it.
                    ReelLog.abr.info("scheduled fetch of segment \(segment) of card '\(play.card)' failed: \(error)")
                    if segment < play.variants.count { play.variants.removeSubrange(segment...) }
                }
                plays[id] = play
                decide()
            }
        }
    }

    /// The plays as the policy sees them, and the seat of each video id. Under the lock. A
    /// policy that reads only what is asked (today's) is shown only the plays that ask: every
    /// segment a demuxer opens comes here, and probing every play for it is work under the lock
    /// the answer never reads.
    private func linkState() -> (LinkState, [String: Int]) {
        var playing: [(id: Int, head: ABRPlayhead?)] = []
        var others: [(id: Int, head: ABRPlayhead?)] = []
        for (id, play) in plays where !grantsAsked || play.waiting != nil {
            let head = play.probe()
            let total = play.durations.reduce(0, +)
            let granted = !play.prefetch && self.granted.keys.contains(play.card)
            if head?.playing == true || granted, (head?.position?.seconds ?? 0) < total {
                playing.append((id, head))
            } else {
                others.append((id, head))
            }
        }
        playing.sort { $0.id < $1.id }
        let playingCards = Set(playing.compactMap { plays[$0.id]?.card })
        let ahead = order.filter { !playingCards.contains($0) }
        let rank = Dictionary(ahead.enumerated().map { ($1, $0) }) { first, _ in first }
        // The newest seat of a card first (a player mounted while its prefetch still runs).
        others.sort { (rank[plays[$0.id]!.card] ?? Int.max, -$0.id) < (rank[plays[$1.id]!.card] ?? Int.max, -$1.id) }
        var videos: [VideoState] = []
        var seats: [String: Int] = [:]
        var inFlight: [InFlightRequest] = []
        let latency = meter?.latency.seconds ?? 0
        for (position, entry) in (playing + others).enumerated() {
            guard let play = plays[entry.id] else { continue }
            // Each seat is a video of its own; a card's second seat is named after the seat too.
            let video = seats[play.card] == nil ? play.card : "\(play.card)#\(entry.id)"
            let isPlaying = position < playing.count
            let distance = isPlaying ? 0 : 1 + (rank[play.card] ?? ahead.count + position - playing.count)
            videos.append(VideoState(
                id: video, distance: distance, isPlaying: isPlaying, playhead: entry.head?.position?.seconds ?? 0,
                downloaded: play.variants.count, downloadedVariants: play.variants, segmentDurations: play.durations,
                bitrates: play.bitrates,
                sizes: play.bitrates.map { bitrate in play.durations.map { Int(Double(bitrate) * $0 / 8) } },
                // A player's card is mounted; a prefetch seat's is reached for certain when it is
                // about to be seen, else the policy's own guess.
                reachProbability: !play.prefetch || urgent.contains(play.card) ? 1 : nil, stalls: entry.head?.stalls ?? 0,
                asks: play.waiting.map { SegmentRequest(video: video, segment: $0, variant: play.ladder.firstIndex(of: play.proposed) ?? 0) },
                playsUntil: isPlaying && !play.prefetch ? granted[play.card] ?? nil : nil))
            seats[video] = entry.id
            inFlight += onTheLink(play, as: video, sizes: videos[videos.count - 1].sizes, latency: latency)
        }
        let now = (ContinuousClock.now - began).seconds
        let state = LinkState(now: now, bandwidthBitsPerSecond: meter?.measuredBitsPerSecond.map(Double.init),
                              latency: latency, videos: videos, thumbnails: waitingThumbnails(rank: rank), inFlight: inFlight)
        return (state, seats)
    }

    /// The segments of `play` (the video `video`, of `sizes`) on the link, with the bytes arrived
    /// of each and its pace once its body has flowed for a tenth of a second; none when the play
    /// cannot tell what arrived. As `placesTaken` counts them: a paused player's demuxer rests in
    /// the middle of a segment, which then moves nothing. Under the lock.
    private func onTheLink(_ play: Play, as video: String, sizes: [[Int]], latency: Double) -> [InFlightRequest] {
        guard let received = play.received else { return [] }
        let reading = !play.prefetch && granted.keys.contains(play.card) ? play.reading : []
        return reading.union(play.filling).sorted().compactMap { segment in
            guard play.variants.indices.contains(segment), sizes.indices.contains(play.variants[segment]),
                  sizes[play.variants[segment]].indices.contains(segment) else { return nil }
            let position = play.variants[segment]
            let variant = play.ladder[position], bytes = sizes[position][segment]
            // Not in flight: not opened yet, or whole in the cache before its arrival is heard.
            let arrived = received(variant, segment) ?? (play.cached(variant, segment) != nil ? bytes : 0)
            let flowing = play.sent[segment].map { (ContinuousClock.now - $0).seconds - latency } ?? 0
            return InFlightRequest(request: SegmentRequest(video: video, segment: segment, variant: position),
                                   bytes: bytes, received: arrived,
                                   bitsPerSecond: flowing >= 0.1 && arrived > 0 ? Double(arrived) * 8 / flowing : nil)
        }
    }

    /// The thumbnails waiting for a turn, nearest first, as the simulation places them: a card
    /// with a player is on screen (0), one in the preload order stands where its video would,
    /// any other behind every card in it. Under the lock.
    private func waitingThumbnails(rank: [String: Int]) -> [ThumbnailState] {
        guard !thumbnails.isEmpty else { return [] }
        let mounted = Set(plays.values.filter { !$0.prefetch }.map(\.card))
        let behind = rank.count + 1
        let placed = thumbnails.filter { !$0.value.granted }.map { ticket, waiting in
            let distance = mounted.contains(waiting.card) ? 0 : rank[waiting.card].map { $0 + 1 } ?? behind
            return (ticket: ticket, state: ThumbnailState(id: waiting.card, distance: distance, bytes: waiting.bytes))
        }
        return placed.sorted { ($0.state.distance, $0.ticket) < ($1.state.distance, $1.ticket) }.map(\.state)
    }
}
