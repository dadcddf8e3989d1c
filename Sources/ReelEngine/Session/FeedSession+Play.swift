import OrderedCollections
import Foundation
import ReelCore
import ReelMedia
import ReelNet

/// The play arbiter's actions performed on the players, and the players' reports fed back to it.
extension FeedSession {
    /// Performs the arbiter's actions in the order given (revocations that make room first).
    func perform(_ actions: [PlayAction]) async {
        for action in actions {
            switch action {
            case .grant(let grant): await start(grant)
            case .revoke(let revocation): await stop(revocation)
            }
        }
    }

    /// A grant: the card's player plays (mounted first on a low-end device, where only the card a
    /// user plays has one), and the tracker shows the card `active`.
    private func start(_ grant: PlayGrant) async {
        let id = grant.card.id
        guard !closing, let card = cards[id], card.video != nil, !card.playing else { return }
        if card.player == nil {
            // Low-end: one player at a time, so the previous card's goes first (its decoder too).
            if isLowEnd {
                for other in cards.values where other.id != id && other.player != nil { unmount(other.id) }
            }
            mount(id)
        } else if grant.fromStart {
            // A replay from the start: a player does not rewind, so a fresh one takes over.
            replacePlayer(id)
        }
        guard let instance = cards[id]?.player, let player = players[instance]?.player else { return }
        player.play(previewLimit: grant.previewSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        players[instance]?.played = true
        cards[id]?.playing = true
        preloadMounted.remove(id)
        emit(.playStart(card: CardID(id), widget: WidgetID(grant.card.widgetID), widgetType: grant.card.widgetType,
                        userIntent: grant.userIntent, stage: reached[id] ?? PreloadStage.none))
        // A player holding its first frame shows it at once: nothing to make room for.
        let prerolled = players[instance]?.prerolled == true && players[instance]?.framed != true
        await yielded(yield.playStarted(instance, waitsForFirstFrame: !prerolled && players[instance]?.framed != true))
        await handle(controller.setPlaying(grant.card.ref, granted: true, at: controllerTime))
    }

    /// A revocation: the card's player pauses (it keeps its position and, unless the pool needs
    /// it, its decoder) and the tracker drops the grant.
    private func stop(_ revocation: PlayRevocation) async {
        let id = revocation.card.id
        guard let card = cards[id], card.playing else { return }
        if let instance = card.player {
            players[instance]?.player?.pause()
            await yielded(yield.playStopped(instance))
        }
        cards[id]?.playing = false
        emit(.playStop(card: CardID(id), reason: revocation.reason))
        await handle(controller.setPlaying(revocation.card.ref, granted: false, at: controllerTime))
    }

    /// Swaps the card's player for a fresh one without unmounting the card (a replay from the
    /// start); the old one stops on its own time.
    private func replacePlayer(_ id: String) {
        guard let instance = cards[id]?.player, let old = players[instance]?.player else { return }
        cards[id]?.player = nil
        let sink = self.sink
        tasks.append(Task {
            let report = await old.stop()
            sink.yield(.stopped(instance, report))
        })
        guard let card = cards[id], let video = card.video else { return }
        nextPlayer += 1
        let fresh = nextPlayer
        let factory = ReportingDataSourceFactory(base: setup.factory, origin: .playback, card: id, player: fresh) {
            sink.yield(.fetch($0))
        }
        let player = Player(card: id, input: video, factory: factory, pool: pool, options: playerOptions)
        players[fresh] = SessionPlayer(card: id, player: player)
        cards[id]?.player = fresh
        tasks.append(Task {
            for await event in player.events { sink.yield(.player(fresh, event)) }
        })
        player.prepare()
    }

    /// What a player said: first frames and stalls become events; an end, a preview reached or a
    /// failure goes to the arbiter (a failed video counts as ended, so play moves on).
    func playerReported(_ instance: Int, _ event: PlayerEvent) async {
        guard let record = players[instance] else { return }
        let id = record.card
        let current = cards[id]?.player == instance
        switch event {
        case .firstFrame(let ttff):
            emit(.firstFrame(card: CardID(id), ttffMs: ttff.totalMs, phases: ttff))
            players[instance]?.framed = true
            // It read the start of its video: on disk for its next play.
            reach(id, .media)
            await yielded(yield.firstFrame(instance))
        case .stalled:
            // Prefetch yields at once; the next buffer report says when the player recovered.
            if current {
                buffersReported.insert(instance)
                await prefetch.reportBuffer(player: instance, bufferedMs: 0)
            }
        case .rebuffered(let waited):
            emit(.stall(card: CardID(id), ms: waited.seconds * 1000))
        case .previewElapsed:
            if current { await tellArbiter(.previewElapsed, id) }
        case .ended:
            await yielded(yield.playStopped(instance))
            if current { await tellArbiter(.ended, id) }
        case .failed(let error):
            // A player the session already unmounted is being stopped: its reads are cancelled,
            // and a read failing meanwhile is not something the user sees.
            await yielded(yield.playStopped(instance))
            guard current else { break }
            emit(.error(card: CardID(id), message: error.description))
            await tellArbiter(.ended, id)
        case .prerolled:
            players[instance]?.prerolled = true
            if current { reach(id, .firstFrame) }
        case .variantSwitched(let change):
            emit(.variantSwitch(card: CardID(id), segment: change.segment, from: change.from, to: change.to, reason: change.reason))
        case .prepared, .paused, .bufferFull, .preempted, .stopped:
            break
        }
    }

    /// Tells prefetch how much media each playing player holds (nil for one that stopped
    /// playing), so it yields while a playing video runs low.
    func reportBuffers() async {
        var playing: [Int: Int] = [:]
        for card in cards.values where card.playing {
            if let instance = card.player, let player = players[instance]?.player {
                playing[instance] = Int(player.status.buffered.seconds * 1000)
            }
        }
        for instance in buffersReported.subtracting(playing.keys).sorted() {
            await prefetch.reportBuffer(player: instance, bufferedMs: nil)
        }
        for (instance, buffered) in playing.sorted(by: { $0.key < $1.key }) {
            await prefetch.reportBuffer(player: instance, bufferedMs: buffered)
            await yielded(yield.buffered(instance, ms: buffered))
        }
        buffersReported = Set(playing.keys)
    }

    private func tellArbiter(_ kind: PlayEvent.Kind, _ id: String) async {
        guard !closing, let playCard = cards[id]?.playCard else { return }
        await perform(await arbiter.handle(PlayEvent(time: controllerTime, kind: kind, card: playCard)))
    }
}
