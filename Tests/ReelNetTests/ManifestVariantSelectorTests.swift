import Foundation
import ReelManifest
import Testing

@testable import ReelNet

/// VariantSelector's policy: the highest bandwidth that fits the resolution box and the
/// bandwidth estimate, else the lowest bandwidth; ties by manifest order.
@Suite struct ManifestVariantSelectorTests {
    static func variant(_ name: String, _ bandwidth: Int, _ width: Int?, _ height: Int?) -> Variant {
        Variant(
            uri: name, resolvedURL: URL(string: "https://a.example/\(name)")!, bandwidth: bandwidth,
            resolution: width.flatMap { w in height.map { Resolution(width: w, height: $0) } })
    }

    static let ladder = [
        variant("360", 600_000, 360, 640),
        variant("1080", 4_000_000, 1080, 1920),
        variant("540", 1_200_000, 540, 960),
        variant("720", 2_500_000, 720, 1280),
    ]

    static func pick(_ constraints: PlaybackConstraints, _ variants: [Variant] = ladder) -> String? {
        VariantSelector.select(from: variants, constraints: constraints)?.uri
    }

    @Test func noConstraintsPicksTheHighestBandwidth() {
        #expect(Self.pick(PlaybackConstraints()) == "1080")
    }

    @Test func resolutionBoxIsOrientationAware() {
        // A landscape 1280x720 box admits the portrait 720x1280 variant.
        #expect(Self.pick(PlaybackConstraints(maxWidth: 1280, maxHeight: 720)) == "720")
        #expect(Self.pick(PlaybackConstraints(maxWidth: 720, maxHeight: 1280)) == "720")
        #expect(Self.pick(PlaybackConstraints(maxWidth: 1000, maxHeight: 1000)) == "540")
        #expect(Self.pick(PlaybackConstraints(maxWidth: 900, maxHeight: 900)) == "360")
    }

    @Test func bandwidthEstimateLimits() {
        #expect(Self.pick(PlaybackConstraints(bandwidthBitsPerSecond: 2_499_999)) == "540")
        #expect(Self.pick(PlaybackConstraints(bandwidthBitsPerSecond: 2_500_000)) == "720")
        // Both limits at once.
        #expect(Self.pick(PlaybackConstraints(maxWidth: 1080, maxHeight: 1920, bandwidthBitsPerSecond: 1_500_000)) == "540")
    }

    @Test func lowEndModeHasItsOwnCap() {
        #expect(Self.pick(PlaybackConstraints(isLowEnd: true)) == "540")
        #expect(Self.pick(PlaybackConstraints(isLowEnd: true, lowEndMaxWidth: 720, lowEndMaxHeight: 1280)) == "720")
        // The smaller of the two boxes applies.
        #expect(Self.pick(PlaybackConstraints(maxWidth: 360, maxHeight: 640, isLowEnd: true)) == "360")
    }

    @Test func nothingFitsFallsBackToTheLowestBandwidth() {
        #expect(Self.pick(PlaybackConstraints(bandwidthBitsPerSecond: 100)) == "360")
        #expect(Self.pick(PlaybackConstraints(maxWidth: 100, maxHeight: 100)) == "360")
    }

    @Test func tiesGoToManifestOrder() {
        let twins = [Self.variant("a", 1000, 640, 360), Self.variant("b", 1000, 640, 360), Self.variant("c", 10, 1, 1)]
        #expect(Self.pick(PlaybackConstraints(), twins) == "a")
        let lowTwins = [Self.variant("x", 500, 4000, 4000), Self.variant("y", 500, 4000, 4000)]
        #expect(Self.pick(PlaybackConstraints(maxWidth: 10, maxHeight: 10), lowTwins) == "x")
    }

    @Test func unknownResolutionFitsAnyBox() {
        let variants = [Self.variant("sized", 1000, 1920, 1080), Self.variant("unsized", 900, nil, nil)]
        #expect(Self.pick(PlaybackConstraints(maxWidth: 640, maxHeight: 360), variants) == "unsized")
    }

    @Test func emptyChoosesNothing() {
        #expect(VariantSelector.select(from: [Variant](), constraints: PlaybackConstraints()) == nil)
    }

    @Test func dashRenditionsUseTheSamePolicy() throws {
        let xml = """
            <MPD mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
            <Representation id="hi" bandwidth="3000000" width="1920" height="1080"/>
            <Representation id="lo" bandwidth="800000" width="960" height="540"/>
            </AdaptationSet><AdaptationSet contentType="audio"><Representation id="a" bandwidth="9000000"/></AdaptationSet>
            </Period></MPD>
            """
        let manifest = Manifest.dash(try DASHManifestParser.parse(Data(xml.utf8), url: URL(string: "https://a.example/m.mpd")!))
        let constraints = PlaybackConstraints(maxWidth: 540, maxHeight: 960)
        #expect(VariantSelector.select(in: manifest, constraints: constraints)?.uri == "lo")
        let dash = try #require({ if case .dash(let dash) = manifest { dash } else { nil } }(), "not a DASH manifest")
        #expect(VariantSelector.select(from: dash.videoRenditions, constraints: constraints)?.id == "lo")
        #expect(VariantSelector.select(from: dash.videoRenditions, constraints: PlaybackConstraints())?.id == "hi")
    }
}
