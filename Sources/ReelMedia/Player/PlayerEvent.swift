import ReelCore
import ReelNet

/// What a player reports to its owner, in order, on `Player.events`.
public enum PlayerEvent: Sendable, CustomStringConvertible {
    /// The input is open and a decoder is held: the player buffers ahead and can start at once.
    case prepared(StreamFormat)
    /// A mounted player decoded its first frame ahead and holds it for the first play
    /// (`PlayerOptions.preroll`).
    case prerolled
    /// The first frame reached the renderer; TTFF is measured from the play request it answers (the
    /// latest play after a pause that came before any frame).
    case firstFrame(TTFFBreakdown)
    /// Decoding stopped on a pause, after this many frames; a later play goes on from the next one.
    case paused(frames: Int)
    /// The demuxer rests: this much media waits ahead of the renderer (the high watermark).
    case bufferFull(Duration)
    /// The player ran out of media while playing (it goes on once enough is buffered).
    case stalled
    /// The wait that began with `stalled` is over after this long (enough media was buffered,
    /// the stream ended, or the player was paused or stopped meanwhile).
    case rebuffered(Duration)
    /// The pool took the decoder back for a card that needed it more; the player keeps its
    /// position and takes a decoder again when told to play.
    case preempted
    /// The next segment comes from another variant (adaptive bitrate), from its key frame on.
    case variantSwitched(ABRReport.Switch)
    /// The video played for its preview limit (time playing, pauses excluded); the player paused.
    case previewElapsed(Duration)
    /// The video played to its end, this many frames in all; the decoder went back to the pool.
    case ended(frames: Int)
    /// The player could not go on (bad input, network, decoding).
    case failed(ReelError)
    /// `stop()` finished: input closed, decoder back in the pool. The last event.
    case stopped

    public var description: String {
        switch self {
        case .prepared(let format): "prepared(\(format))"
        case .prerolled: "prerolled"
        case .firstFrame(let ttff): "firstFrame(\(ttff.totalMs) ms)"
        case .paused(let frames): "paused(\(frames))"
        case .bufferFull(let buffered): "bufferFull(\(buffered))"
        case .stalled: "stalled"
        case .rebuffered(let waited): "rebuffered(\(waited))"
        case .preempted: "preempted"
        case .variantSwitched(let change): "variantSwitched(\(change.reason) at segment \(change.segment))"
        case .previewElapsed(let watched): "previewElapsed(\(watched))"
        case .ended(let frames): "ended(\(frames))"
        case .failed(let error): "failed(\(error))"
        case .stopped: "stopped"
        }
    }
}
