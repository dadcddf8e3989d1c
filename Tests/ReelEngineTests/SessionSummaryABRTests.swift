import Foundation
import ReelCore
import ReelFeed
import ReelEngine
import ReelMedia
import ReelNet
import Testing

/// The summary's adaptive-bitrate figures, folded from the reports of the players that played:
/// media time per variant cut at what each player showed, the mean played bitrate, the switches.
@Suite("Session summary: adaptive bitrate")
struct SessionSummaryABRTests {
    /// A player report as the player writes it, with `abr` and the media time it showed.
    static func report(played: Double, abr: ABRReport?) throws -> PlayerReport {
        var object: [String: Any] = [
            "card": "s0/0", "url": "http://h/master.m3u8", "frames": 0, "stalls": 0, "stallMs": 0, "rebuffers": 0,
            "rebufferMs": 0, "late": 0, "dropped": 0, "preemptions": 0, "ended": false, "previewElapsed": false,
            "decodeErrors": 0, "corruptPackets": 0, "notes": [String](), "requests": 0, "bytes": 0, "playedSeconds": played,
        ]
        if let abr { object["abr"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(abr)) }
        return try JSONDecoder().decode(PlayerReport.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static let high = "http://h/720p/index.m3u8", low = "http://h/360p/index.m3u8"

    @Test func timeSharesAreTheMediaShownFromEachVariant() throws {
        // 720p for segments 0-1, 360p for 2, 720p again for 3: 7 s shown, so segment 3 counts 1 s.
        let first = ABRReport(estimateKbps: 4000, startEstimateKbps: 8000, startVariant: Self.high, adaptive: true,
                              segments: [.init(index: 0, variant: Self.high, kbps: 1600, seconds: 2),
                                         .init(index: 1, variant: Self.high, kbps: 1600, seconds: 2),
                                         .init(index: 2, variant: Self.low, kbps: 400, seconds: 2),
                                         .init(index: 3, variant: Self.high, kbps: 1600, seconds: 2)],
                              switches: [.init(segment: 2, from: Self.high, to: Self.low, reason: "down-stall"),
                                         .init(segment: 3, from: Self.low, to: Self.high, reason: "up")])
        // A single-variant play (no abr) does not count; a second adaptive play shows 1 s of 360p.
        let second = ABRReport(estimateKbps: 900, startEstimateKbps: 900, startVariant: Self.low, adaptive: true,
                               segments: [.init(index: 0, variant: Self.low, kbps: 400, seconds: 2)])
        let abr = SessionSummary.ABR(played: [try Self.report(played: 7, abr: first), try Self.report(played: 5, abr: nil),
                                              try Self.report(played: 1, abr: second)])
        #expect(abr.plays == 2)
        #expect(abr.playedSeconds == 8)
        #expect(abr.switchesUp == 1 && abr.switchesDown == 1)
        #expect(abr.variants.map(\.variant) == [Self.low, Self.high])
        #expect(abr.variants.map(\.seconds) == [3, 5])
        let shares: [Double] = [3.0 / 8, 5.0 / 8]
        #expect(abr.variants.map(\.share) == shares)
        let expected: Double = (3 * 400 + 5 * 1600) / 8
        #expect(abr.meanPlayedKbps == expected)
    }

    @Test func nothingPlayedHasNoMean() throws {
        let abr = SessionSummary.ABR(played: [try Self.report(played: 0, abr: nil)])
        #expect(abr.plays == 0 && abr.meanPlayedKbps == nil && abr.variants.isEmpty)
    }
}
