import ReelCore
import ReelFeed

/// Cards of a small hand-made feed, with ids shaped like the real ones: the short at widget
/// position w is "s<w>/0", a carousel's cards "c<w>/<slot>", a merch card "m<w>/0".
enum TestCards {
    static func short(_ widget: Int) -> PlayCard {
        PlayCard(ref: CardRef(widget: widget, slot: 0), id: "s\(widget)/0", widgetID: "s\(widget)", widgetType: .short)
    }

    static func carousel(_ widget: Int, _ slot: Int) -> PlayCard {
        PlayCard(ref: CardRef(widget: widget, slot: slot), id: "c\(widget)/\(slot)", widgetID: "c\(widget)", widgetType: .carousel)
    }

    static func merch(_ widget: Int) -> PlayCard {
        PlayCard(ref: CardRef(widget: widget, slot: 0), id: "m\(widget)/0", widgetID: "m\(widget)", widgetType: .merch)
    }
}

extension PlayParameters {
    /// The defaults of `playback.*`: shorts 1, carousels 3, merch 0; carousel previews 5 s.
    static let standard = PlayParameters(maxSimultaneous: [.short: 1, .carousel: 3, .merch: 0], previewSeconds: [.short: 0, .carousel: 5])
}

extension PlayAction {
    /// "+s0/0" an autoplay grant, "+s0/0 user" a user's; "-s0/0 ended" a revocation, with
    /// " user" when a user's action caused it.
    var brief: String {
        switch self {
        case .grant(let grant): "+\(grant.card.id)" + (grant.userIntent ? " user" : "")
        case .revoke(let revocation): "-\(revocation.card.id) \(revocation.reason.rawValue)" + (revocation.userIntent ? " user" : "")
        }
    }
}

/// Drives a `PlayPolicy` one event a second and keeps every action.
struct PolicyDriver {
    var policy: PlayPolicy
    var time = 0.0
    var log: [PlayAction] = []

    init(_ parameters: PlayParameters = .standard) {
        policy = PlayPolicy(parameters: parameters)
    }

    /// Sends one event; returns its actions in brief.
    @discardableResult
    mutating func send(_ kind: PlayEvent.Kind, _ card: PlayCard) -> [String] {
        actions(kind, card).map(\.brief)
    }

    /// Sends one event for each card in order; returns all their actions in brief.
    @discardableResult
    mutating func send(_ kind: PlayEvent.Kind, _ cards: [PlayCard]) -> [String] {
        cards.flatMap { send(kind, $0) }
    }

    mutating func actions(_ kind: PlayEvent.Kind, _ card: PlayCard) -> [PlayAction] {
        time += 1
        let actions = policy.handle(PlayEvent(time: time, kind: kind, card: card))
        log += actions
        return actions
    }

    var playing: [String] { policy.playing.map(\.id) }
    var waiting: [String] { policy.waiting.map(\.id) }
}
