import Foundation
import ReelCore
import ReelFeed
import ReelManifest
import ReelNet

/// The download policy in the simulation: every segment a player reads goes through it. Today's
/// grants what the player's own rules ask for; the link scheduler (`scheduler.policy=scheduler`)
/// decides the segments itself, up to `scheduler.maxTransfers` on the link at a time, while
/// players and prefetch jobs still read manifests, playlists and init sections themselves, and a
/// player reads a segment only once the scheduler fetched it (docs/download-wiring.md).
extension FeedSimulation {
    /// The variant at which the stream's segment is cached or on its way, if it is.
    func availableVariant(_ stream: SimStream, segment: Int) -> Int? {
        guard stream.segmentDurations.indices.contains(segment) else { return nil }
        return stream.variants.indices.first { variant in
            let key = stream.segmentKey(variant, segment)
            return entries[key]?.complete == true || inFlight[key] != nil
        }
    }

    /// Asks the policy what the link fetches next while fewer than `scheduler.maxTransfers`
    /// segments it asked for are on their way (it sees those as fetched), and performs the
    /// answers; first, stops those of them it gives up (`giveUpLate`).
    func scheduleLink() {
        if schedulerDecides, !scheduled.isEmpty, !ended, coordinator.phase != .closed { giveUpLate() }
        // How many of a carousel's cards the link carries: the feed's rules hear of a change
        // (asked while several players play or the link carries fewer: the state is built only then).
        var built: (LinkState, [String: (card: String, stream: SimStream, ladder: [Int])])?
        if !downloadPolicy.readsOnlyAsks, !ended, coordinator.phase != .closed,
           linkCarries != nil || players.values.filter({ $0.playing && !$0.ended && !$0.stopped }).count > 1 {
            built = linkState()
            if let change = built.flatMap({ downloadPolicy.carriesChange($0.0, told: linkCarries) }) {
                linkCarries = change
                inbox.append(.linkCarries(change))
            }
        }
        // Today's grants what is asked even as the session ends, as the readers read before.
        // Thumbnails take no place among `scheduler.maxTransfers` (small, they would crowd out the
        // segments): the policy orders them, and they wait while the segments fill the link.
        while scheduled.count < downloadPolicy.transfers(within: maxTransfers),
              downloadPolicy.readsOnlyAsks || (!ended && coordinator.phase != .closed) {
            // The state built above serves the first decision: nothing changed since.
            let (state, ladders) = built ?? linkState()
            built = nil
            guard !state.videos.isEmpty || !state.thumbnails.isEmpty else { return }
            switch downloadPolicy.decide(state) {
            case .fetchThumbnail(let card):
                guard let index = waitingThumbnails.firstIndex(where: { $0.card == card }) else { return }
                let url = waitingThumbnails.remove(at: index).url
                loadThumbnail(card, url: url)
            case .wait(let until):
                // Today's waits for the next reader that asks.
                guard until.isFinite else { return }
                let at = max(now, until)
                if let wake = linkWake, wake.at <= at { return }
                linkVersion += 1
                linkWake = (linkVersion, at)
                agenda.add(.link(version: linkVersion), at: at)
                return
            case .fetch(let request):
                guard let (card, stream, ladder) = ladders[request.video].map({ ($0.card, $0.stream, $0.ladder) }),
                      ladder.indices.contains(request.variant), stream.segmentDurations.indices.contains(request.segment) else { return }
                let variant = ladder[request.variant]
                if let id = askerOf(card: card, segment: request.segment, variant: variant) {
                    // What a player's own rules asked for (today's): its read, as it asked.
                    players[id]?.asks = nil
                    fetchSegment(id, variant: variant)
                    continue
                }
                if let id = jobAsking(card: card, segment: request.segment, variant: variant) {
                    // What a prefetch job asked for (today's): its read.
                    readJobSegment(id, stream: stream)
                    continue
                }
                let key = stream.segmentKey(variant, request.segment)
                // A segment already on its way (the policy asked for what it sees as fetched): look again later.
                guard scheduled[key] == nil, inFlight[key] == nil else { return }
                scheduled[key] = request
                if let id = readerOfNext(card: card, segment: request.segment) {
                    fetchSegment(id, variant: variant)
                } else {
                    let source = stream.variants[variant]
                    readPlaylist(of: stream, variant: variant, by: .scheduled(card))
                    read(key, url: source.segmentURLs[request.segment], kind: .segment, bytes: source.segmentBytes[request.segment],
                         by: .scheduled(card))
                }
            }
        }
    }

    /// Reads the media playlist of `variant` into the cache when it is not there, for a segment
    /// read at that variant: the engine's player loads (through the cache) the playlist of each
    /// variant it reads or fills a segment at, so a player coming back to the card finds it. A
    /// model: read beside the segment, where the engine reads it first (one request's latency).
    func readPlaylist(of stream: SimStream, variant: Int, by reader: Reader) {
        let key = stream.playlistKey(variant), source = stream.variants[variant]
        // A DASH rendition or a media playlist alone has no playlist of its own (0 bytes).
        guard source.playlistBytes > 0, entries[key]?.complete != true else { return }
        read(key, url: source.name, kind: .playlist, bytes: source.playlistBytes, by: reader)
    }

    /// Stops the segments the policy asked for that it now gives up (`DownloadPolicy.giveUp`):
    /// what arrived stays as a partial entry, resumed if the segment is read again. A player's
    /// read is stopped only before its playhead reaches the segment (a real player would have
    /// shown part of it), and a transfer someone else follows goes on.
    func giveUpLate() {
        var flights: [InFlightRequest] = []
        var keys: [SegmentRequest: String] = [:]
        for (key, flight, transfer) in scheduledFlights() where transfer.joiners.isEmpty && canStop(transfer) {
            flights.append(flight)
            keys[flight.request] = key
        }
        guard !flights.isEmpty else { return }
        let state = linkState(countingScheduled: false).0
        // A card missing from the state is gone only when nothing will read it: one whose
        // player is still at its playlists keeps its place in the feed without a state.
        let shown = Set(state.videos.map(\.id))
        let wanted = Set(coordinator.preloadQueue.map(\.card)).union(players.values.filter { !$0.stopped }.map(\.card))
        flights.removeAll { !shown.contains($0.request.video) && wanted.contains($0.request.video) }
        guard !flights.isEmpty else { return }
        for request in downloadPolicy.giveUp(flights, in: state) {
            guard let key = keys[request], let transfer = inFlight[key].flatMap({ transfers[$0] }) else { continue }
            givenUp += 1
            abandon(key, by: transfer.owner)
            guard case .player(let id) = transfer.owner, var player = players[id] else { continue }
            player.fetching = false
            player.currentKey = nil
            player.partial = 0
            if !player.segmentVariants.isEmpty { player.segmentVariants.removeLast() }
            players[id] = player
            reschedule(id)
        }
    }

    /// The segments the policy asked for that are on the link, by cache key, with what has
    /// arrived of each and its pace once its body has flowed for a tenth of a second.
    private func scheduledFlights() -> [(key: String, flight: InFlightRequest, transfer: Transfer)] {
        scheduled.keys.sorted().compactMap { key in
            guard let request = scheduled[key], let id = inFlight[key], let transfer = transfers[id] else { return nil }
            let flowing = now - transfer.startedAt - link.latency(at: transfer.startedAt)
            let pace = flowing >= 0.1 ? Double(link.received(id)) * 8 / flowing : nil
            let flight = InFlightRequest(request: request, bytes: transfer.total, received: transfer.offset + link.received(id),
                                         bitsPerSecond: pace)
            return (key, flight, transfer)
        }
    }

    /// Whether a transfer may be stopped: a fill no player reads yet, or a player's read its
    /// playhead has not reached.
    private func canStop(_ transfer: Transfer) -> Bool {
        switch transfer.owner {
        case .scheduled: return true
        case .player(let id):
            guard let player = players[id], let stream = player.stream, player.fetching,
                  stream.segmentDurations.indices.contains(player.downloaded) else { return false }
            advancePlayhead(id)
            let start = stream.segmentDurations.prefix(player.downloaded).reduce(0, +)
            return (players[id]?.playhead ?? start) < start - 1e-6
        case .prefetch, .thumbnail, .switchPlaylist: return false
        }
    }

    /// Reads the card's thumbnail through the cache.
    func loadThumbnail(_ card: String, url: URL) {
        read(url.absoluteString, url: url.absoluteString, kind: .image, bytes: models.media.imageBytes(url, baseURL: baseURL),
             by: .thumbnail(card))
    }

    /// A card's thumbnail asked for by the coordinator: at once under today's policy or when
    /// cached; otherwise it waits for the policy's turn.
    func thumbnailAsked(_ card: String, url: URL) {
        let key = url.absoluteString
        guard schedulerDecides, entries[key]?.complete != true, inFlight[key] == nil else {
            loadThumbnail(card, url: url)
            return
        }
        waitingThumbnails.append((card, url))
        scheduleLink()
    }

    /// The player of `card` whose own rules ask for exactly that segment at that variant, if any.
    private func askerOf(card: String, segment: Int, variant: Int) -> PlayerID? {
        readerOfNext(card: card, segment: segment).flatMap { players[$0]?.asks == variant ? $0 : nil }
    }

    /// The variant the prefetch job of `card` asks its next segment at, if it asks.
    private func jobAsks(_ card: String) -> Int? {
        requestOfCard[card].flatMap { requests[$0]?.running == true ? requests[$0]?.asks : nil }
    }

    /// The prefetch job of `card` asking for exactly that segment at that variant, if any.
    private func jobAsking(card: String, segment: Int, variant: Int) -> PrefetchRequestID? {
        guard jobAsks(card) == variant, let id = requestOfCard[card], requests[id]?.segment == segment else { return nil }
        return id
    }

    /// The mounted player of `card` waiting for exactly that segment, if any.
    private func readerOfNext(card: String, segment: Int) -> PlayerID? {
        players.keys.sorted().first { id in
            guard let player = players[id] else { return false }
            return player.card == card && !player.stopped && !player.fetching && player.step == .segments && player.downloaded == segment
        }
    }

    /// The feed as the policy sees it (docs/download-wiring.md): the playing players (a carousel
    /// plays several) in the order they were mounted, then the other mounted ones and the
    /// preload targets at `media` or beyond, in that order. Mounted and urgent cards (the
    /// ones the user is about to see) are reached for certain. A card whose manifest has not
    /// arrived is left out but keeps its place (the distance of the cards behind it). Also each
    /// video's card, stream and ladder (stream variant indices, lowest bitrate first).
    /// `countingScheduled`: segments the policy asked for that are on their way count as
    /// fetched (what it decides on), or not (what it gives up on).
    func linkState(countingScheduled: Bool = true) -> (LinkState, [String: (card: String, stream: SimStream, ladder: [Int])]) {
        var order: [(card: String, stream: SimStream?, player: SimPlayer?, urgent: Bool)] = []
        var seen: Set<String> = []
        // A policy that reads only what is asked (today's) is shown only the videos that ask:
        // building the whole feed's state for every read would cost the simulation half its speed.
        let onlyAsking = downloadPolicy.readsOnlyAsks
        let mounted = players.keys.sorted().compactMap { id -> SimPlayer? in
            players[id].flatMap { !$0.stopped && $0.stream != nil && $0.step == .segments && (!onlyAsking || $0.asks != nil) ? $0 : nil }
        }
        let playing = mounted.filter { $0.playing && !$0.ended }
        for player in playing + mounted.filter({ !($0.playing && !$0.ended) }) where !seen.contains(player.card) {
            seen.insert(player.card)
            order.append((player.card, player.stream, player, true))
        }
        // A card whose manifest has not arrived keeps its place in the order (the distance of
        // those behind it) but is not in the state.
        for (card, video, urgent) in onlyAsking ? [] : coordinator.preloadQueue where !seen.contains(card) {
            let stream = models.media.streams[video.absoluteString]
            seen.insert(card)
            let known = jobAsks(card) != nil || stream.map { entries["\($0.url)|manifest"]?.complete == true } == true
            order.append((card, known ? stream : nil, nil, urgent))
        }
        // A prefetch job that asks is in the state wherever its card stands (a low-end device's).
        // Under the link scheduler none asks.
        for id in schedulerDecides ? [] : requests.keys.sorted() {
            guard let request = requests[id], request.asks != nil, requestOfCard[request.order.card] == id,
                  !seen.contains(request.order.card) else { continue }
            seen.insert(request.order.card)
            order.append((request.order.card, models.media.streams[request.order.video.absoluteString], nil, false))
        }
        var videos: [VideoState] = []
        var ladders: [String: (card: String, stream: SimStream, ladder: [Int])] = [:]
        let playingCards = Set(playing.map(\.card))
        for (index, entry) in order.enumerated() {
            guard let stream = entry.stream else { continue }
            let ladder: [Int]
            if stream.switches {
                ladder = stream.variants.indices.sorted { stream.variants[$0].bandwidth < stream.variants[$1].bandwidth }
            } else {
                ladder = [entry.player?.variant ?? jobAsks(entry.card) ?? startVariant(of: stream)]
            }
            var downloadedVariants: [Int] = []
            while let variant = cachedVariant(stream, segment: downloadedVariants.count, in: ladder, countingScheduled: countingScheduled) {
                downloadedVariants.append(variant)
            }
            let isPlaying = playingCards.contains(entry.card)
            let playerAsks = entry.player.flatMap { player in
                player.asks.flatMap { asked in ladder.firstIndex(of: asked) }
                    .map { SegmentRequest(video: entry.card, segment: player.downloaded, variant: $0) }
            }
            let asks = playerAsks ?? jobAsks(entry.card).flatMap { asked in
                ladder.firstIndex(of: asked).flatMap { position in
                    requestOfCard[entry.card].flatMap { requests[$0] }
                        .map { SegmentRequest(video: entry.card, segment: $0.segment, variant: position) }
                }
            }
            let distance = playingCards.isEmpty ? index : (isPlaying ? 0 : index - playingCards.count + 1)
            videos.append(VideoState(id: entry.card, distance: distance, isPlaying: isPlaying, playhead: entry.player?.playhead ?? 0,
                                     downloaded: downloadedVariants.count, downloadedVariants: downloadedVariants,
                                     segmentDurations: stream.segmentDurations,
                                     bitrates: ladder.map { stream.variants[$0].bandwidth },
                                     sizes: ladder.map { stream.variants[$0].segmentBytes },
                                     reachProbability: entry.urgent ? 1 : nil, stalls: entry.player?.rebuffers ?? 0, asks: asks,
                                     playsUntil: isPlaying ? entry.player?.previewLimit : nil))
            ladders[entry.card] = (entry.card, stream, ladder)
        }
        // A waiting thumbnail stands where its card does: on its video's place; on screen
        // (mounted) beside the playing card; else behind every video the policy is shown (a
        // card near the screen that the preload stages do not expect the user to reach soon).
        let distances = Dictionary(videos.map { ($0.id, $0.distance) }, uniquingKeysWith: min)
        let behind = (videos.map(\.distance).max() ?? 0) + 1
        let thumbnails = waitingThumbnails.map { waiting in
            let distance = distances[waiting.card] ?? (coordinator.card(waiting.card)?.state.isMounted == true ? 0 : behind)
            return ThumbnailState(id: waiting.card, distance: distance, bytes: models.media.imageBytes(waiting.url, baseURL: baseURL))
        }
        let state = LinkState(now: now, bandwidthBitsPerSecond: estimator.measuredBitsPerSecond.map(Double.init),
                              latency: estimator.latency.seconds, videos: videos, thumbnails: thumbnails,
                              inFlight: countingScheduled && schedulerDecides ? scheduledFlights().map(\.flight) : [])
        return (state, ladders)
    }

    /// The ladder position at which the segment is complete in the cache or (when
    /// `countingScheduled`) asked for by the policy and on its way, if it is.
    private func cachedVariant(_ stream: SimStream, segment: Int, in ladder: [Int], countingScheduled: Bool) -> Int? {
        guard stream.segmentDurations.indices.contains(segment) else { return nil }
        return ladder.indices.first { position in
            let key = stream.segmentKey(ladder[position], segment)
            return entries[key]?.complete == true || (countingScheduled && scheduled[key] != nil)
        }
    }
}
