import ReelFeed

/// The challenge's player fields, read back from a `VideoState`. The challenge's clock ticks in
/// whole milliseconds (its delays are rounded, its chunks last 1000 ms, its watch times are whole),
/// so positions are rounded back to them: a baseline then sees exactly the numbers `run.py`
/// hands its `Algorithm`.
extension VideoState {
    /// Milliseconds downloaded and not yet played (`Player.get_buffer_size()`).
    var challengeBufferMs: Double { (buffered * 1000).rounded() }

    /// Chunks left to download (`get_remain_video_num()`).
    var remainingSegments: Int { segmentDurations.count - downloaded }

    /// Bytes downloaded of the video (`get_preload_size()`).
    var downloadedBytes: Int {
        var total = 0
        for (segment, variant) in downloadedVariants.enumerated() { total += sizes[variant][segment] }
        return total
    }

    /// The next segment of the video at `variant`.
    func next(at variant: Int) -> SegmentRequest {
        SegmentRequest(video: id, segment: downloaded, variant: variant)
    }
}
