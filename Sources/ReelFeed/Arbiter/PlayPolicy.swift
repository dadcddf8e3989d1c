import ReelCore
/// The play rules as a pure state machine: card events in, grants and revocations out. It keeps
/// the cards that are mounted and visible enough to matter (told `ready`, `softRelease` or
/// `paused` since their last `unmounted`) and, for the whole session, which cards were watched.
///
/// - One widget plays at a time, at most `limit(for:)` of its cards.
/// - Only `ready` cards autoplay; waiting cards start in feed order (`CardRef`), the playing
///   widget's own cards first, so play rotates through the visible videos.
/// - A card that ended or reached its preview limit is watched: it never autoplays again.
/// - A `softRelease` autoplaying card hands play over to a waiting card (of its widget, or of
///   another widget once all of its widget's cards are leaving), else plays on.
/// - A user's play outranks autoplay; a user's pause holds the card until a play or an unmount.
/// - Low-end: nothing autoplays and at most one card plays.
/// - The link may carry fewer cards at once than the rules allow (`linkCarries`): the autoplaying
///   cards beyond that stop, the latest started first, and start again once it carries more.
///
/// docs/arbiter.md gives every rule with its reasons.
public struct PlayPolicy: Sendable {
    /// How a known card stands in the viewport, as the arbiter was last told.
    public enum Placement: String, Sendable, Hashable {
        case ready, softRelease, paused
    }

    /// One known card's standing, for the session's report and for tests.
    public struct CardStatus: Sendable, Equatable {
        public var card: PlayCard
        public var placement: Placement
        public var isPlaying: Bool
        /// The card's grant came from a user's play (false when it is not playing).
        public var userIntent: Bool
        /// The user paused it: it does not autoplay until a user's play or an unmount.
        public var heldByUser: Bool
    }

    private struct Grant: Sendable {
        var userIntent: Bool
        /// Grant order, to pick the longest-playing card when one must give way.
        var sequence: Int
    }

    private struct Entry: Sendable {
        var card: PlayCard
        var placement: Placement
        var grant: Grant?
        var heldByUser = false
    }

    /// Known cards kept in feed order (a dozen or so: the ones near the viewport), found by id.
    private struct Entries: Sendable {
        private(set) var inOrder: [Entry] = []

        subscript(id: String) -> Entry? {
            get { inOrder.first { $0.card.id == id } }
            set {
                let old = inOrder.firstIndex { $0.card.id == id }
                if let old, let newValue, newValue.card.ref == inOrder[old].card.ref {
                    inOrder[old] = newValue
                    return
                }
                if let old { inOrder.remove(at: old) }
                guard let newValue else { return }
                let key = (newValue.card.ref, newValue.card.id)
                let position = inOrder.firstIndex { key < ($0.card.ref, $0.card.id) } ?? inOrder.endIndex
                inOrder.insert(newValue, at: position)
            }
        }
    }

    public let parameters: PlayParameters
    private var entries = Entries()
    /// Cards whose one play is over (ended or preview elapsed), by card id, for the session.
    private var watched: Set<String> = []
    /// Cards whose player sits at the end of the video: a user's replay starts from the beginning.
    private var atEnd: Set<String> = []
    private var grantCount = 0
    /// Cards the link carries playing at once (`linkCarries`); nil: as many as the rules allow.
    private var carried: Int?

    public init(parameters: PlayParameters) {
        self.parameters = parameters
    }

    public init(config: ReelConfig) {
        self.init(parameters: PlayParameters(config: config))
    }

    // MARK: Input

    /// Applies one event and returns what the players must do, revocations that make room
    /// before the grants that need it.
    public mutating func handle(_ event: PlayEvent) -> [PlayAction] {
        var actions: [PlayAction] = []
        let id = event.card.id
        let time = event.time
        switch event.kind {
        case .ready, .softRelease, .paused:
            let placement: Placement = event.kind == .ready ? .ready : event.kind == .softRelease ? .softRelease : .paused
            var entry = entries[id] ?? Entry(card: event.card, placement: placement)
            entry.card = event.card
            entry.placement = placement
            entries[id] = entry
            if placement == .paused, entry.grant != nil {
                revoke(id, .paused, userIntent: false, at: time, into: &actions)
            }
        case .unmounted:
            if entries[id]?.grant != nil {
                revoke(id, .unmounted, userIntent: false, at: time, into: &actions)
            }
            entries[id] = nil
        case .ended, .previewElapsed:
            watched.insert(id)
            if event.kind == .ended { atEnd.insert(id) }
            if entries[id]?.grant != nil {
                revoke(id, event.kind == .ended ? .ended : .preview, userIntent: false, at: time, into: &actions)
            }
        case .userPlay:
            userPlay(id, at: time, into: &actions)
        case .userPause:
            guard entries[id] != nil else { break }
            entries[id]?.heldByUser = true
            if entries[id]?.grant != nil {
                revoke(id, .userPaused, userIntent: true, at: time, into: &actions)
            }
        }
        fill(at: time, into: &actions)
        return actions
    }

    /// The link carries at most `count` playing cards at once (at least one); nil lifts the
    /// bound. Autoplaying cards beyond it stop (`narrowed`), the latest started first; a user's
    /// play stays. Waiting cards start again once the bound rises.
    public mutating func linkCarries(_ count: Int?, at time: Double) -> [PlayAction] {
        carried = count.map { max(1, $0) }
        var actions: [PlayAction] = []
        if let carried {
            let granted = sortedEntries.filter { $0.grant != nil }
            let excess = granted.count - carried
            let latest = granted.filter { $0.grant?.userIntent == false }.sorted { $0.grant!.sequence > $1.grant!.sequence }
            for entry in latest.prefix(max(0, excess)) {
                revoke(entry.card.id, .narrowed, userIntent: false, at: time, into: &actions)
            }
        }
        fill(at: time, into: &actions)
        return actions
    }

    // MARK: Queries

    /// Known cards in feed order.
    public var cards: [CardStatus] {
        sortedEntries.map { entry in
            CardStatus(card: entry.card, placement: entry.placement, isPlaying: entry.grant != nil,
                       userIntent: entry.grant?.userIntent ?? false, heldByUser: entry.heldByUser)
        }
    }

    /// Cards playing now, in feed order.
    public var playing: [PlayCard] {
        sortedEntries.filter { $0.grant != nil }.map(\.card)
    }

    /// Cards that would autoplay if room came, in the order they would start: the playing
    /// widget's own first, then the others in feed order.
    public var waiting: [PlayCard] {
        let sorted = sortedEntries
        let candidates = sorted.filter(isCandidate)
        guard let widget = sorted.first(where: { $0.grant != nil })?.card.widgetID else { return candidates.map(\.card) }
        return (candidates.filter { $0.card.widgetID == widget } + candidates.filter { $0.card.widgetID != widget }).map(\.card)
    }

    /// Whether the card's one play is over (ended or preview elapsed) in this session.
    public func hasWatched(_ cardID: String) -> Bool {
        watched.contains(cardID)
    }

    // MARK: Rules

    /// Cards of one widget of `type` that may play at once: the rules' limit, within what the
    /// link carries.
    private func limit(for type: WidgetType) -> Int {
        min(parameters.limit(for: type), carried ?? .max)
    }

    /// Feed order, ties (one position, two ids, during a relayout) broken by id.
    private var sortedEntries: [Entry] {
        entries.inOrder
    }

    /// May autoplay now if there is room (never on a low-end device).
    private func isCandidate(_ entry: Entry) -> Bool {
        !parameters.isLowEnd && entry.placement == .ready && entry.grant == nil && !entry.heldByUser
            && !watched.contains(entry.card.id) && parameters.limit(for: entry.card.widgetType) > 0
    }

    /// An autoplaying card that is leaving: it gives way to a waiting card.
    private func mayYield(_ entry: Entry) -> Bool {
        entry.placement == .softRelease && entry.grant?.userIntent == false
    }

    /// Starts waiting cards while the rules leave room, and hands play over from leaving cards.
    /// Every turn grants a `ready` card or revokes a `softRelease` one, which never becomes a
    /// candidate while it stays `softRelease`, so the loop ends.
    private mutating func fill(at time: Double, into actions: inout [PlayAction]) {
        guard !parameters.isLowEnd else { return }
        while true {
            let sorted = sortedEntries
            let granted = sorted.filter { $0.grant != nil }
            let candidates = sorted.filter(isCandidate)
            guard let active = granted.first?.card else {
                guard let first = candidates.first else { return }
                grant(first.card.id, userIntent: false, at: time, into: &actions)
                continue
            }
            if let next = candidates.first(where: { $0.card.widgetID == active.widgetID }) {
                if granted.count < limit(for: active.widgetType) {
                    grant(next.card.id, userIntent: false, at: time, into: &actions)
                    continue
                }
                guard let leaving = granted.filter(mayYield).min(by: { $0.grant!.sequence < $1.grant!.sequence }) else { return }
                revoke(leaving.card.id, .yielded, userIntent: false, at: time, into: &actions)
                continue
            }
            guard !candidates.isEmpty, granted.allSatisfy(mayYield) else { return }
            for entry in granted {
                revoke(entry.card.id, .yielded, userIntent: false, at: time, into: &actions)
            }
        }
    }

    /// A user's play: the card plays now, whatever autoplay was doing. Cards of other widgets
    /// (low-end: every other card) stop; if the card's widget is at its limit, the card that
    /// gives way is an autoplaying one before a user's, a leaving one before a ready one, the
    /// longest playing first. Ignored for a card not mounted, of a type that may not play, or
    /// that ended when `userPlayReplaysEnded` is off.
    private mutating func userPlay(_ id: String, at time: Double, into actions: inout [PlayAction]) {
        guard let entry = entries[id], parameters.limit(for: entry.card.widgetType) > 0 else { return }
        if atEnd.contains(id), !parameters.userPlayReplaysEnded { return }
        entries[id]?.heldByUser = false
        if entry.grant != nil {
            // Already playing: it is the user's choice now, so it no longer yields to autoplay.
            entries[id]?.grant?.userIntent = true
            return
        }
        let others = sortedEntries.filter { $0.grant != nil && $0.card.id != id }
        var mates: [Entry] = []
        for other in others {
            if parameters.isLowEnd || other.card.widgetID != entry.card.widgetID {
                revoke(other.card.id, .preempted, userIntent: true, at: time, into: &actions)
            } else {
                mates.append(other)
            }
        }
        let victims = mates.sorted { a, b in
            let ka = (a.grant!.userIntent ? 1 : 0, a.placement == .softRelease ? 0 : 1, a.grant!.sequence)
            let kb = (b.grant!.userIntent ? 1 : 0, b.placement == .softRelease ? 0 : 1, b.grant!.sequence)
            return ka < kb
        }
        let excess = mates.count + 1 - limit(for: entry.card.widgetType)
        for victim in victims.prefix(max(0, excess)) {
            revoke(victim.card.id, .preempted, userIntent: true, at: time, into: &actions)
        }
        grant(id, userIntent: true, at: time, into: &actions)
    }

    // MARK: Actions

    private mutating func grant(_ id: String, userIntent: Bool, at time: Double, into actions: inout [PlayAction]) {
        guard let card = entries[id]?.card else { return }
        grantCount += 1
        entries[id]?.grant = Grant(userIntent: userIntent, sequence: grantCount)
        let fromStart = atEnd.remove(id) != nil
        let preview = userIntent ? nil : parameters.previewLimit(for: card.previewCategory)
        actions.append(.grant(PlayGrant(time: time, card: card, userIntent: userIntent, previewSeconds: preview, fromStart: fromStart)))
    }

    private mutating func revoke(_ id: String, _ reason: PlayStopReason, userIntent: Bool, at time: Double, into actions: inout [PlayAction]) {
        guard let card = entries[id]?.card, entries[id]?.grant != nil else { return }
        entries[id]?.grant = nil
        actions.append(.revoke(PlayRevocation(time: time, card: card, reason: reason, userIntent: userIntent)))
    }
}
