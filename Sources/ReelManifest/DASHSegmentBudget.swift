import ReelCore
/// How many segments one representation may still add in one period: what is left of its
/// rendition's `manifest.maxSegments` and of the MPD's `manifest.maxTotalSegments`. Expansion
/// counts a period's segments first, checks the count here, and only then builds them.
struct DASHSegmentBudget {
    /// Segments the rendition may still take.
    var rendition: Int
    /// Segments the whole MPD may still take.
    var manifest: Int
    let limits: ManifestLimits
    /// The representation, for messages.
    let representationID: String

    var remaining: Int { min(rendition, manifest) }

    /// Throws unless `count` more segments fit; `what` names what expands ("the SegmentTimeline").
    /// Takes a `Double` so that counts computed from durations are checked before conversion.
    func check(_ count: Double, _ what: String, line: Int, reader: DASHAttributeReader) throws {
        if !(count <= Double(rendition)) {
            throw reader.failure(
                line,
                "\(what) makes Representation '\(representationID)' longer than \(limits.maxSegments) segments (manifest.maxSegments)")
        }
        if !(count <= Double(manifest)) {
            throw reader.failure(
                line,
                "\(what) makes the MPD longer than \(limits.maxTotalSegments) segments over all representations (manifest.maxTotalSegments)")
        }
    }

    func check(_ count: Int, _ what: String, line: Int, reader: DASHAttributeReader) throws {
        try check(Double(count), what, line: line, reader: reader)
    }
}
