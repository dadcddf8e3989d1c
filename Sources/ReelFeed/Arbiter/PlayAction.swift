import ReelCore
/// What the play arbiter asks of the players, in the order to perform them (revocations that
/// make room come before the grant that needs it).
public enum PlayAction: Sendable, Equatable {
    case grant(PlayGrant)
    case revoke(PlayRevocation)

    public var card: PlayCard {
        switch self {
        case .grant(let grant): grant.card
        case .revoke(let revocation): revocation.card
        }
    }

    /// The action as a play fact (`playStart` or `playStop`), for `PlayRulesChecker`.
    public var fact: PlayFact {
        switch self {
        case .grant(let grant):
            PlayFact(time: grant.time, card: grant.card.id, kind: .playStart(widget: grant.card.widgetID, type: grant.card.widgetType, userIntent: grant.userIntent))
        case .revoke(let revocation):
            PlayFact(time: revocation.time, card: revocation.card.id, kind: .playStop(reason: revocation.reason))
        }
    }
}
