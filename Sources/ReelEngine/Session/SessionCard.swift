import Foundation
import ReelCore

/// What the feed session keeps per card: where it is, what it shows, its visibility state, its
/// mounted player (by instance number) and whether that player plays now.
struct SessionCard: Sendable {
    var ref: CardRef
    let id: String
    let widgetID: String
    let type: WidgetType?
    /// The video's URL against the base URL; nil for merch and collapsed widgets.
    let video: URL?
    var state: VisibilityState = .idle
    /// The mounted player's instance number.
    var player: Int?
    var playing = false
    var thumbnailRequested = false
    var prefetchRequested = false

    /// The card as the play arbiter knows it; nil for a collapsed widget.
    var playCard: PlayCard? {
        type.map { PlayCard(ref: ref, id: id, widgetID: widgetID, widgetType: $0) }
    }
}
