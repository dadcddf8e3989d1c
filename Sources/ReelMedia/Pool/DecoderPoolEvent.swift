/// What the decoder pool tells its subscribers (`DecoderPool.subscribe()`), in order.
public enum DecoderPoolEvent: Sendable, Hashable {
    /// How a grant was served.
    public enum Grant: String, Sendable, Hashable { case created, reused, reconfigured }

    case granted(card: String, decoder: Int, Grant)
    case waiting(card: String)
    case preempted(card: String, decoder: Int, by: String)
    case evicted(decoder: Int)
    case released(card: String, decoder: Int)
}
