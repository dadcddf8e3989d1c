import ReelCore
import ReelFeed
import Testing

/// Random event sequences from a seeded generator: after every step the arbiter's actions, as
/// play facts, pass `PlayRulesChecker`, and the policy's own state keeps the stronger invariants
/// (no idle slot while a card waits, no leaving autoplay card kept while one waits to replace it).
@Suite("PlayArbiter: property test")
struct PlayArbiterPropertyTests {
    /// Seven widgets of every type: shorts, carousels of 5, 4 and 3 cards, a merch card.
    static let feed: [PlayCard] = [TestCards.short(0)]
        + (0..<5).map { TestCards.carousel(1, $0) }
        + [TestCards.merch(2), TestCards.short(3)]
        + (0..<4).map { TestCards.carousel(4, $0) }
        + [TestCards.short(5)]
        + (0..<3).map { TestCards.carousel(6, $0) }

    static let steps = 5000

    /// The card at `index` of the feed in its widget's `lap`: like a looping catalog, a widget
    /// that left the screen entirely may come back holding new videos ("c1@2/3").
    static func card(_ index: Int, laps: [Int]) -> PlayCard {
        let base = feed[index]
        let lap = laps[base.ref.widget]
        guard lap > 0 else { return base }
        let widgetID = "\(base.widgetID)@\(lap)"
        return PlayCard(ref: base.ref, id: "\(widgetID)/\(base.ref.slot)", widgetID: widgetID, widgetType: base.widgetType)
    }

    /// Parameters varied by seed: carousel limit 1-3, short previews on or off, replay on or off.
    static func parameters(seed: UInt64, lowEnd: Bool) -> PlayParameters {
        PlayParameters(
            maxSimultaneous: [.short: 1, .carousel: 1 + Int(seed % 3), .merch: 0],
            previewSeconds: [.short: seed % 2 == 0 ? 0 : 4, .carousel: 5],
            isLowEnd: lowEnd,
            userPlayReplaysEnded: seed % 4 < 2
        )
    }

    /// Event kinds with their weights.
    static let kinds: [(PlayEvent.Kind, Int)] = [
        (.ready, 26), (.softRelease, 12), (.paused, 10), (.unmounted, 7),
        (.ended, 10), (.previewElapsed, 6), (.userPlay, 9), (.userPause, 5),
    ]

    @Test("random sessions never break the play rules", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64], [false, true])
    func randomSessions(seed: UInt64, lowEnd: Bool) {
        let parameters = Self.parameters(seed: seed, lowEnd: lowEnd)
        var random = SeededRandom(seed: seed)
        var policy = PlayPolicy(parameters: parameters)
        var checker = PlayRulesChecker(
            maxSimultaneous: Dictionary(uniqueKeysWithValues: WidgetType.allCases.map { ($0, parameters.maxSimultaneous[$0.ordinal]) }),
            isLowEnd: lowEnd
        )
        var facts = FactBuilder(lowEnd: lowEnd)
        var recent: [(Int, PlayEvent, [PlayAction])] = []
        var reasons: Set<PlayStopReason> = []
        var tenths = 0
        var grants = 0
        var laps = [Int](repeating: 0, count: 7)

        var events = 0
        // What the link carries (`linkCarries`), changed now and then as a download policy would.
        var carried: Int?
        for step in 0..<Self.steps {
            tenths += [0, 1, 5, 10, 20][Int(random.next() % 5)]
            let time = Double(tenths) / 10
            if random.unit() < 0.03 {
                carried = [nil, 1, 2][Int(random.next() % 3)]
                let actions = policy.linkCarries(carried, at: time)
                for action in actions {
                    if case .revoke(let revocation) = action { reasons.insert(revocation.reason) }
                }
                grants += actions.filter { if case .grant = $0 { true } else { false } }.count
                var problems = facts.facts(forLinkActions: actions, at: time).flatMap { checker.record($0).map(\.description) }
                problems += Self.invariantProblems(policy, actions: actions, tracked: facts.playing, carried: carried)
                if !problems.isEmpty {
                    Issue.record("seed \(seed), lowEnd \(lowEnd), step \(step): the link carries \(carried.map(String.init) ?? "all"): \(problems.joined(separator: "; ")) after \(actions.map(\.brief))")
                    return
                }
            }
            let kind = Self.pickKind(&random)
            let playingNow = policy.playing
            let card = [.ended, .previewElapsed, .userPause].contains(kind) && !playingNow.isEmpty && random.unit() < 0.8
                ? random.pick(playingNow) : Self.card(Int(random.next() % UInt64(Self.feed.count)), laps: laps)
            // A third of the visibility events move the whole widget, as a vertical scroll does.
            var cards = [card]
            if [.ready, .softRelease, .paused, .unmounted].contains(kind), random.unit() < 0.33 {
                cards = Self.feed.indices.filter { Self.feed[$0].ref.widget == card.ref.widget }.map { Self.card($0, laps: laps) }
            }
            for card in cards {
                let event = PlayEvent(time: time, kind: kind, card: card)
                let actions = policy.handle(event)
                events += 1
                grants += actions.filter { if case .grant = $0 { true } else { false } }.count
                recent.append((step, event, actions))
                if recent.count > 15 { recent.removeFirst() }
                for action in actions {
                    if case .revoke(let revocation) = action { reasons.insert(revocation.reason) }
                }
                var problems: [String] = []
                for fact in facts.facts(for: event, actions: actions) {
                    problems += checker.record(fact).map(\.description)
                }
                problems += Self.invariantProblems(policy, actions: actions, tracked: facts.playing, carried: carried)
                if !problems.isEmpty {
                    let log = recent.map { "\($0.0): t=\(JSONWriter.number($0.1.time)) \($0.1.kind.rawValue) \($0.1.card.id) -> \($0.2.map(\.brief))" }
                    Issue.record("""
                        seed \(seed), lowEnd \(lowEnd), step \(step): \(problems.joined(separator: "; "))
                        last events:
                        \(log.joined(separator: "\n"))
                        """)
                    return
                }
            }
            // A widget gone from the screen may come back with new videos.
            if kind == .unmounted, !policy.cards.contains(where: { $0.card.widgetID == card.widgetID }), random.unit() < 0.5 {
                laps[card.ref.widget] += 1
            }
        }
        print("seed \(seed) lowEnd \(lowEnd): \(events) events, \(grants) grants, \(laps.reduce(0, +)) widget laps")
        // The run must have exercised every way a play ends (low-end has nothing to yield to).
        #expect(grants > 80, "seed \(seed): only \(grants) grants in \(events) events")
        // Nothing is narrowed where one card plays at a time.
        let one = lowEnd || parameters.limit(for: .carousel) == 1
        let expected = Set(PlayStopReason.allCases).subtracting((lowEnd ? [.yielded] : []) + (one ? [.narrowed] : []))
        #expect(reasons == expected, "seed \(seed): revocation reasons seen \(reasons.map(\.rawValue).sorted())")
    }

    static func pickKind(_ random: inout SeededRandom) -> PlayEvent.Kind {
        var roll = Int(random.next() % UInt64(kinds.reduce(0) { $0 + $1.1 }))
        for (kind, weight) in kinds {
            if roll < weight { return kind }
            roll -= weight
        }
        return .ready
    }

    /// Invariants stronger than the checker's, read from the policy's state.
    /// `carried`: the playing cards the link carries (`linkCarries`); a user's plays may exceed it.
    static func invariantProblems(_ policy: PlayPolicy, actions: [PlayAction], tracked: Set<String>, carried: Int?) -> [String] {
        var problems: [String] = []
        let parameters = policy.parameters
        func limit(_ type: WidgetType) -> Int { min(parameters.limit(for: type), carried.map { max(1, $0) } ?? .max) }
        let statuses = policy.cards
        let playing = statuses.filter(\.isPlaying)
        let waiting = policy.waiting
        if Set(playing.map(\.card.id)) != tracked {
            problems.append("policy plays \(playing.map(\.card.id)) but its actions say \(tracked.sorted())")
        }
        if Set(playing.map(\.card.widgetID)).count > 1 {
            problems.append("two widgets playing: \(playing.map(\.card.id))")
        }
        if let first = playing.first, playing.count > parameters.limit(for: first.card.widgetType) {
            problems.append("over the limit: \(playing.map(\.card.id))")
        }
        if let first = playing.first, playing.count > limit(first.card.widgetType), playing.contains(where: { !$0.userIntent }) {
            problems.append("autoplays past what the link carries: \(playing.map(\.card.id))")
        }
        for status in playing {
            if status.heldByUser { problems.append("\(status.card.id) plays while held by the user") }
            if !status.userIntent {
                if parameters.isLowEnd { problems.append("\(status.card.id) autoplays on a low-end device") }
                if status.placement == .paused { problems.append("\(status.card.id) autoplays while paused") }
                if policy.hasWatched(status.card.id) { problems.append("\(status.card.id) autoplays though watched") }
            }
        }
        for action in actions {
            if case .grant(let grant) = action {
                if parameters.limit(for: grant.card.widgetType) == 0 { problems.append("granted \(grant.card.id), whose type may not play") }
                if !grant.userIntent, grant.previewSeconds != parameters.previewLimit(for: grant.card.previewCategory) {
                    problems.append("\(grant.card.id) granted without its preview limit")
                }
                if grant.userIntent, grant.previewSeconds != nil { problems.append("a user's play of \(grant.card.id) has a preview limit") }
            }
        }
        if parameters.isLowEnd {
            if !waiting.isEmpty { problems.append("cards wait for autoplay on a low-end device: \(waiting.map(\.id))") }
            return problems
        }
        // Work-conserving: no free slot while a card could take it, no leaving autoplay card
        // kept while a card waits to replace it.
        let leaving = playing.filter { $0.placement == .softRelease && !$0.userIntent }
        guard let widget = playing.first?.card else {
            if !waiting.isEmpty { problems.append("nothing plays while \(waiting.map(\.id)) wait") }
            return problems
        }
        let own = waiting.filter { $0.widgetID == widget.widgetID }
        if !own.isEmpty {
            if playing.count < limit(widget.widgetType) {
                problems.append("\(widget.widgetID) has room but \(own.map(\.id)) wait")
            }
            if !leaving.isEmpty { problems.append("leaving \(leaving.map(\.card.id)) kept while \(own.map(\.id)) wait") }
        } else if !waiting.isEmpty, leaving.count == playing.count {
            problems.append("all of \(widget.widgetID) is leaving but \(waiting.map(\.id)) wait")
        }
        if waiting.first.map({ $0.widgetID != widget.widgetID }) == true, !own.isEmpty {
            problems.append("waiting order does not put \(widget.widgetID)'s cards first")
        }
        return problems
    }
}

/// Turns events and the arbiter's actions into play facts, as a feed session with its decoder
/// pool would record them. Other devices: a card's player mounts with its first visibility
/// event and unmounts with `unmounted`. Low-end: a pool of one player, mounted for the card about
/// to play and detached only when another card needs it and it is not playing, so two grants at
/// once show as two mounted players.
struct FactBuilder {
    let lowEnd: Bool
    var mounted: Set<String> = []
    /// Cards playing according to the actions so far.
    var playing: Set<String> = []

    init(lowEnd: Bool) {
        self.lowEnd = lowEnd
    }

    /// The facts of what the arbiter did when the link's bound changed (no card event).
    mutating func facts(forLinkActions actions: [PlayAction], at time: Double) -> [PlayFact] {
        actions.map { action in
            if case .grant = action { playing.insert(action.card.id) } else { playing.remove(action.card.id) }
            return action.fact
        }
    }

    mutating func facts(for event: PlayEvent, actions: [PlayAction]) -> [PlayFact] {
        var facts: [PlayFact] = []
        let card = event.card.id
        if !lowEnd, [.ready, .softRelease, .paused].contains(event.kind), mounted.insert(card).inserted {
            facts.append(PlayFact(time: event.time, card: card, kind: .mount))
        }
        for action in actions {
            let id = action.card.id
            switch action {
            case .grant:
                if lowEnd, !mounted.contains(id) {
                    for other in mounted.sorted() where !playing.contains(other) {
                        mounted.remove(other)
                        facts.append(PlayFact(time: event.time, card: other, kind: .unmount))
                    }
                    mounted.insert(id)
                    facts.append(PlayFact(time: event.time, card: id, kind: .mount))
                }
                playing.insert(id)
            case .revoke:
                playing.remove(id)
            }
            facts.append(action.fact)
        }
        if event.kind == .unmounted, mounted.remove(card) != nil {
            facts.append(PlayFact(time: event.time, card: card, kind: .unmount))
            playing.remove(card)
        }
        return facts
    }
}
