import ReelMedia
import ReelNet

extension SessionSummary.ABR {
    /// The figures over the reports of the players that played: each report's segments, cut to
    /// the media time it showed, give the time per variant; its switches are counted.
    public init(played reports: [PlayerReport]) {
        self.init()
        var seconds: [String: (kbps: Int, seconds: Double)] = [:]
        for report in reports {
            guard let abr = report.abr else { continue }
            plays += 1
            for part in abr.played(seconds: report.playedSeconds) {
                seconds[part.variant, default: (part.kbps, 0)].seconds += part.seconds
            }
            switchesUp += abr.switches.filter(\.isUp).count
            switchesDown += abr.switches.filter { !$0.isUp }.count
        }
        playedSeconds = seconds.values.reduce(0) { $0 + $1.seconds }
        if playedSeconds > 0 {
            meanPlayedKbps = seconds.values.reduce(0) { $0 + Double($1.kbps) * $1.seconds } / playedSeconds
        }
        variants = seconds.keys.sorted().map { variant in
            let entry = seconds[variant]!
            return VariantShare(variant: variant, kbps: entry.kbps, seconds: entry.seconds,
                                share: playedSeconds > 0 ? entry.seconds / playedSeconds : 0)
        }
    }
}

extension SessionSummary.Bandwidth {
    /// The meter's figures now.
    public init(_ estimate: BandwidthEstimate) {
        self.init()
        estimateKbps = estimate.estimateKbps
        samples = estimate.samples
    }
}
