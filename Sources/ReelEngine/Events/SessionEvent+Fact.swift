import ReelCore
import ReelFeed

extension SessionEvent.Kind {
    /// The event a coordinator's fact stands for; nil for a warning, which goes to the warnings.
    package init?(_ fact: FeedFact) {
        switch fact {
        case .visibility(let card, let from, let to): self = .visibility(card: CardID(card), from: from, to: to)
        case .mount(let card): self = .mount(card: CardID(card))
        case .unmount(let card): self = .unmount(card: CardID(card))
        case .playStart(let card, let widget, let type, let userIntent, let stage):
            self = .playStart(card: CardID(card), widget: WidgetID(widget), widgetType: type, userIntent: userIntent, stage: stage)
        case .playStop(let card, let reason): self = .playStop(card: CardID(card), reason: reason)
        case .preload(let card, let stage): self = .preload(card: CardID(card), stage: stage)
        case .error(let card, let message): self = .error(card: card.map { CardID($0) }, message: message)
        case .warning: return nil
        }
    }
}
