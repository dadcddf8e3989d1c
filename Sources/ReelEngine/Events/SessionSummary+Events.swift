import ReelCore
import ReelFeed

extension SessionSummary {
    /// The part of a summary a session's events give alone: plays, time to first frame and the
    /// share within 50 ms (over every first frame, and over the plays after the session's first),
    /// the cold start, plays abandoned before a first frame, the stage each play's card had
    /// reached, stalls, errors. The rest (frames, CDN, bytes, prefetch ledger, decoders, memory)
    /// comes from the session's counters.
    public init(events: [SessionEvent]) {
        self.init()
        var ttffs: [Double] = []
        var warmTTFFs: [Double] = []
        // Open plays by card: whether each is the session's first, and whether it showed a frame.
        var open: [CardID: (first: Bool, framed: Bool)] = [:]
        var stages = StageCounts()
        for event in events {
            switch event.kind {
            case .playStart(let start):
                if let stage = start.stage { stages[stage] += 1 }
                if let previous = open[start.card], !previous.framed { abandonedBeforeFirstFrame += 1 }
                open[start.card] = (plays == 0, false)
                plays += 1
                if plays > 1 { warm.plays += 1 }
            case .firstFrame(let frame):
                ttffs.append(frame.ttffMs)
                guard let play = open[frame.card], !play.framed else { continue }
                open[frame.card]?.framed = true
                if play.first { coldStartTTFFMs = frame.ttffMs } else { warmTTFFs.append(frame.ttffMs) }
            case .playStop(let stop):
                if let play = open.removeValue(forKey: stop.card), !play.framed { abandonedBeforeFirstFrame += 1 }
            case .stall(let event):
                stalls.count += 1
                stalls.totalMs += event.ms
            case .error: errors += 1
            default: continue
            }
        }
        ttffMs = Distribution(ttffs).percentiles
        startedWithin50msRatio = Self.fastShare(ttffs)
        warm.ttffMs = Distribution(warmTTFFs).percentiles
        warm.startedWithin50msRatio = Self.fastShare(warmTTFFs)
        prefetch.stageAtPlay = stages
        if stages.total > 0 { prefetch.hitRatio = Double(stages.media + stages.firstFrame) / Double(stages.total) }
    }

    /// The share of `ttffs` within `fastStartMs`; nil when empty.
    static func fastShare(_ ttffs: [Double]) -> Double? {
        ttffs.isEmpty ? nil : Double(ttffs.filter { $0 <= fastStartMs }.count) / Double(ttffs.count)
    }

    /// A play started "fast" when its first frame came within this many milliseconds.
    public static let fastStartMs = 50.0
}
