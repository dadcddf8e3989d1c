/// The transfers on the link as the link scheduler weighs one more: the link shares its
/// bandwidth evenly among them, so a new transfer of `x` bytes delays each of them by up to `x`
/// bytes. A playing video's segment on its way has a deadline: it must be in before the playhead
/// reaches its end. `VideoState.buffered` counts a segment on its way as in hand; this says when
/// it will be in, and which new transfer would make it late (docs/scheduler.md).
struct LinkShare {
    /// One transfer on the link: the bytes still to come, and the deadline (seconds from now)
    /// when it is a playing video's segment.
    struct Transfer {
        var pending: Int
        var deadline: Double?
    }

    var transfers: [Transfer]
    /// Bits per second the transfers share.
    var bandwidth: Double

    /// The transfers of `state.inFlight`, sharing `bandwidth`, or, once every one has measured
    /// its own pace, no more than those paces add up to. A playing video's segment is due
    /// `margin` before its playhead reaches the segment's end.
    init(_ state: LinkState, bandwidth: Double, margin: Double) {
        let videos = Dictionary(state.videos.map { ($0.id, $0) }) { first, _ in first }
        transfers = state.inFlight.map { flight in
            let video = videos[flight.request.video]
            let deadline = video.flatMap { video in
                video.isPlaying ? video.start(of: flight.request.segment + 1) - video.playhead - margin : nil
            }
            return Transfer(pending: max(0, flight.bytes - flight.received), deadline: deadline)
        }
        let paces = state.inFlight.compactMap(\.bitsPerSecond)
        self.bandwidth = !paces.isEmpty && paces.count == state.inFlight.count
            ? max(1000, min(bandwidth, paces.reduce(0, +))) : bandwidth
    }

    /// Whether a new transfer of `bytes` would have a playing video's segment on its way arrive
    /// after its deadline. A segment late already is made later still: the new transfer waits.
    func crowds(_ bytes: Int) -> Bool {
        transfers.contains { transfer in
            guard let deadline = transfer.deadline, transfer.pending > 0 else { return false }
            let ahead = transfers.reduce(0) { $0 + min($1.pending, transfer.pending) }
            return seconds(ahead + min(bytes, transfer.pending)) > deadline
        }
    }

    private func seconds(_ bytes: Int) -> Double { Double(bytes) * 8 / bandwidth }
}
