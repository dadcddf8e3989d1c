import ReelFeed
import ReelNet

/// One resource someone in a feed session read: what the data source's metrics say when it was
/// closed, who read it and for which card (and which of the card's players, for playback).
package struct SessionFetch: Sendable {
    package var origin: SessionEvent.Origin
    package var card: String?
    /// The player instance that read it (playback only).
    package var player: PlayerID?
    package var metrics: TransferMetrics

    package init(origin: SessionEvent.Origin, card: String?, player: PlayerID?, metrics: TransferMetrics) {
        self.origin = origin
        self.card = card
        self.player = player
        self.metrics = metrics
    }
}
