import Foundation
import ReelCore

/// A parsed DASH MPD flattened into renditions: one per Representation (keyed by type,
/// language and `@id`), its segments concatenated across periods with a discontinuity at each
/// period boundary.
public struct DASHManifest: Sendable, Hashable {
    public var url: URL
    /// `MPD@type == "dynamic"` (live).
    public var isDynamic: Bool
    /// `mediaPresentationDuration` in seconds, or the sum of the period durations when absent.
    public var duration: Double?
    /// `minimumUpdatePeriod` in seconds (dynamic MPDs).
    public var minimumUpdatePeriod: Double?
    public var periodCount: Int
    /// `Location` elements, resolved.
    public var locations: [URL]
    /// In document order of first appearance.
    public var renditions: [Rendition]
    public var warnings: [ManifestWarning]

    public init(
        url: URL, isDynamic: Bool = false, duration: Double? = nil, minimumUpdatePeriod: Double? = nil,
        periodCount: Int = 0, locations: [URL] = [], renditions: [Rendition] = [], warnings: [ManifestWarning] = []
    ) {
        self.url = url
        self.isDynamic = isDynamic
        self.duration = duration
        self.minimumUpdatePeriod = minimumUpdatePeriod
        self.periodCount = periodCount
        self.locations = locations
        self.renditions = renditions
        self.warnings = warnings
    }

    /// The video renditions: what `VariantSelector` chooses among and what the inspect report
    /// lists as `variants`.
    public var videoRenditions: [Rendition] { renditions.filter { $0.type == .video } }
}
