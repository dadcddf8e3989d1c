import ReelCore

extension SessionSummary {
    /// The part of a summary a session's events give alone: plays, time to first frame and the
    /// share within 50 ms, stalls, errors. The rest (frames, CDN, bytes, prefetch, decoders,
    /// memory) comes from the session's counters.
    public init(events: [SessionEvent]) {
        self.init()
        var ttffs: [Double] = []
        for event in events {
            switch event.kind {
            case .playStart: plays += 1
            case .firstFrame(let event): ttffs.append(event.ttffMs)
            case .stall(let event):
                stalls.count += 1
                stalls.totalMs += event.ms
            case .error: errors += 1
            default: continue
            }
        }
        ttffMs = Distribution(ttffs).percentiles
        startedWithin50msRatio = ttffs.isEmpty ? nil : Double(ttffs.filter { $0 <= Self.fastStartMs }.count) / Double(ttffs.count)
    }

    /// A play started "fast" when its first frame came within this many milliseconds.
    public static let fastStartMs = 50.0
}
