/// Where the pool puts a request for a decoder; see `DecoderPoolPolicy`.
public enum DecoderPlacement: Sendable, Hashable {
    /// An idle decoder of the same codec and bitstream format: flushed already, taken as is.
    case reuse(Int)
    /// A new decoder (the pool is not full yet).
    case create
    /// An idle decoder of the same codec but another bitstream format, reopened with the new
    /// stream's extradata.
    case reconfigure(Int)
    /// An idle decoder of another kind of media, shut down to make room for a new one.
    case evict(Int)
    /// A lower-priority holder's decoder, taken back from it.
    case preempt(Int)
    /// Nothing is free and nobody may be preempted: wait for a release or a priority change.
    case wait
}
