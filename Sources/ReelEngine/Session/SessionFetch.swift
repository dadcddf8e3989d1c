import ReelNet

/// One resource someone in a feed session read: what the data source's metrics say when it was
/// closed, who read it and for which card (and which of the card's players, for playback).
struct SessionFetch: Sendable {
    var origin: SessionEvent.Origin
    var card: String?
    /// The player instance that read it (playback only).
    var player: Int?
    var metrics: TransferMetrics
}
