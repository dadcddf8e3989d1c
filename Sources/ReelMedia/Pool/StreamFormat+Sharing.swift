extension StreamFormat {
    /// True when one flushed decoder can go on from a stream of `self` to one of `other`: same
    /// codec and same bitstream format (identical extradata). MPEG-TS H.264 has none, and fMP4 or
    /// DASH H.264 has none either once its packets are converted to Annex B (`AnnexBFilter`), so
    /// they all share; Annex B extradata (MPEG-TS after `avformat_find_stream_info`) still differs
    /// with the parameter sets. Picture size does not matter: H.264 carries it in band.
    public func sharesDecoder(with other: StreamFormat) -> Bool {
        codec == other.codec && mediaType == other.mediaType && extradataDigest == other.extradataDigest
    }

    /// True when a decoder of `self` can be reopened for `other` on the same thread (same kind of
    /// media); otherwise the pool evicts it and creates another.
    public func sameKind(as other: StreamFormat) -> Bool {
        codec == other.codec && mediaType == other.mediaType
    }
}
