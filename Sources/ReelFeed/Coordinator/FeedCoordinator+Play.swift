import ReelCore

/// The play policy's decisions performed on the players, and the players' reports fed back.
extension FeedCoordinator {
    /// Performs the policy's actions in the order given (revocations that make room first).
    mutating func perform(_ playActions: [PlayAction]) {
        for action in playActions {
            switch action {
            case .grant(let grant): start(grant)
            case .revoke(let revocation): stop(revocation)
            }
        }
    }

    /// A grant: the card's player plays (mounted first on a low-end device, where only the card a
    /// user plays has one), and visibility shows the card `active`.
    private mutating func start(_ grant: PlayGrant) {
        let id = grant.card.id
        guard !closing, let card = cards[id], card.video != nil, !card.playing else { return }
        if card.player == nil {
            // Low-end: one player at a time, so the previous card's goes first (its decoder too).
            if parameters.isLowEnd {
                for other in cards.values.sorted(by: { $0.ref < $1.ref }) where other.id != id && other.player != nil {
                    unmount(other.id)
                }
            }
            mount(id)
        } else if grant.fromStart {
            // A replay from the start: a player does not rewind, so a fresh one takes over.
            replacePlayer(id)
        }
        guard let player = cards[id]?.player else { return }
        actions.append(.play(player, previewLimit: grant.previewSeconds))
        cards[id]?.playing = true
        cards[id]?.playsUntil = grant.previewSeconds
        preloadMounted.remove(id)
        record(.playStart(card: id, widget: grant.card.widgetID, type: grant.card.widgetType, userIntent: grant.userIntent,
                          stage: reached[id] ?? PreloadStage.none))
        // A player holding its first frame shows it at once: nothing to make room for.
        let record = players[player]
        let waits = !(record?.prerolled == true && record?.framed != true) && record?.framed != true
        yielded(yield.playStarted(player.rawValue, waitsForFirstFrame: waits))
        showPlaying(grant.card.ref, true)
    }

    /// A revocation: the card's player pauses (it keeps its position and, unless the pool needs
    /// it, its decoder), and visibility no longer shows it `active`.
    private mutating func stop(_ revocation: PlayRevocation) {
        let id = revocation.card.id
        guard let card = cards[id], card.playing else { return }
        if let player = card.player {
            actions.append(.pause(player))
            stoppedPlaying(player)
        }
        cards[id]?.playing = false
        record(.playStop(card: id, reason: revocation.reason))
        showPlaying(revocation.card.ref, false)
    }

    /// Visibility shows the grant (`ready -> active`) or its end: reported, never asked back.
    private mutating func showPlaying(_ ref: CardRef, _ granted: Bool) {
        for event in controller.setPlaying(ref, granted: granted, at: time).events {
            guard case .transition(let transition) = event.kind else { continue }
            record(.visibility(card: transition.cardID, from: transition.from, to: transition.to))
            cards[transition.cardID]?.state = transition.to
        }
    }

    /// Swaps the card's player for a fresh one without unmounting the card (a replay from the
    /// start); the old one stops on its own time.
    private mutating func replacePlayer(_ id: String) {
        guard let old = cards[id]?.player else { return }
        cards[id]?.player = nil
        actions.append(.unmount(old))
        guard let video = cards[id]?.video else { return }
        let fresh = newPlayer(for: id)
        cards[id]?.player = fresh
        actions.append(.mount(fresh, card: id, video: video))
    }

    /// A player no longer plays (paused, ended, unmounted, failed): prefetch need not yield to it.
    mutating func stoppedPlaying(_ player: PlayerID) {
        yielded(yield.playStopped(player.rawValue))
        if buffers.removeValue(forKey: player) != nil { updateStarving() }
    }

    /// What a player said: an end, a preview reached or a failure goes to the play policy (a
    /// failed video counts as ended, so play moves on); first frames and held frames are stages.
    mutating func playerReported(_ player: PlayerID, _ report: PlayerReportKind) {
        guard let record = players[player] else { return }
        let id = record.card
        let current = cards[id]?.player == player
        switch report {
        case .firstFrame:
            players[player]?.framed = true
            // It read the start of its video: on disk for its next play.
            reach(id, .media)
            yielded(yield.firstFrame(player.rawValue))
        case .stalled:
            // Prefetch yields at once; the next buffer sample says when the player recovered.
            if current, cards[id]?.playing == true {
                buffers[player] = 0
                updateStarving()
            }
        case .previewElapsed:
            if current { tellPolicy(.previewElapsed, id) }
        case .ended:
            stoppedPlaying(player)
            if current { tellPolicy(.ended, id) }
        case .failed(let message):
            // A player already unmounted is being stopped: its reads are cancelled, and a read
            // failing meanwhile is not something the user sees.
            stoppedPlaying(player)
            guard current else { break }
            self.record(.error(card: id, message: message))
            tellPolicy(.ended, id)
        case .prerolled:
            players[player]?.prerolled = true
            if current { reach(id, .firstFrame) }
        case .stopped:
            players[player] = nil
        }
    }

    /// The media the playing players hold: prefetch yields while one runs low.
    mutating func buffered(_ samples: [PlayerID: Int]) {
        var playing: [PlayerID: Int] = [:]
        for card in cards.values where card.playing {
            if let player = card.player, let ms = samples[player] { playing[player] = ms }
        }
        buffers = playing
        updateStarving()
        for (player, ms) in playing.sorted(by: { $0.key < $1.key }) {
            yielded(yield.buffered(player.rawValue, ms: ms))
        }
    }

    private mutating func updateStarving() {
        let now = buffers.values.contains { $0 < parameters.bufferWatermarkMs }
        guard parameters.prefetchEnabled, now != starving else { return }
        starving = now
        actions.append(.setStarving(now))
    }

    /// Takes the gate `PlaybackYield` chose, when it changed.
    mutating func yielded(_ changed: PrefetchGate?) {
        guard changed != nil else { return }
        updateGate()
    }
}
