import Foundation
import ReelCore

/// The state of one MPD walk: periods, then their representations, each becoming (or extending)
/// a rendition. Segment expansion is in `DASHBuilder+Segments.swift`.
struct DASHBuilder {
    let url: URL
    let limits: ManifestLimits
    let reader: DASHAttributeReader
    var warnings = WarningList()
    /// Renditions in document order of first appearance, found by key in `index`.
    var renditions: [Rendition] = []
    var index: [String: Int] = [:]
    /// Segments of every rendition so far (`manifest.maxTotalSegments`).
    var totalSegments = 0
    var isDynamic = false

    init(url: URL, limits: ManifestLimits) {
        self.url = url
        self.limits = limits
        self.reader = DASHAttributeReader(url: url)
    }

    mutating func warn(_ line: Int, _ message: String) {
        warnings.add(ManifestWarning(line: line, message))
    }

    func resolve(_ uri: String, against base: URL, line: Int) throws -> URL {
        if uri.isEmpty { return base }
        guard let resolved = URLResolver.resolve(uri, against: base) else {
            throw reader.failure(line, "'\(uri.prefix(80))' is not a valid URL")
        }
        return resolved
    }

    /// The element's first `BaseURL` resolved against `base`, or `base`.
    func baseURL(of element: XMLTree.Element, against base: URL) throws -> URL {
        guard let baseElement = element.first("BaseURL") else { return base }
        return try resolve(baseElement.trimmedText, against: base, line: baseElement.line)
    }

    func duration(_ element: XMLTree.Element, _ name: String) throws -> Double? {
        guard let text = element[name] else { return nil }
        guard let seconds = ISO8601Duration.seconds(text) else {
            throw reader.failure(element.line, "\(element.name)@\(name) '\(text)' is not an ISO 8601 duration")
        }
        return seconds
    }

    // MARK: MPD and periods

    mutating func build(_ root: XMLTree.Element) throws -> DASHManifest {
        guard root.name == "MPD" else {
            throw reader.failure(root.line, "the root element is <\(root.name)>, not <MPD>")
        }
        isDynamic = root["type"] == "dynamic"
        let presentationDuration = try duration(root, "mediaPresentationDuration")
        let mpdBase = try baseURL(of: root, against: url)
        let locations = try root.children(named: "Location").map {
            try resolve($0.trimmedText, against: url, line: $0.line)
        }
        let periods = root.children(named: "Period")
        if periods.isEmpty { warn(root.line, "the MPD has no Period") }
        if periods.count > limits.maxPeriods {
            throw reader.failure(
                periods[limits.maxPeriods].line, "more than \(limits.maxPeriods) periods (manifest.maxPeriods)")
        }

        // Period timing (5.3.2.1): start from @start or the previous period's end; duration
        // from @duration, the next period's @start, or the presentation's end.
        var starts: [Double?] = []
        var durations: [Double?] = []
        for (index, period) in periods.enumerated() {
            var start = try duration(period, "start")
            if start == nil {
                if index == 0 {
                    start = isDynamic ? nil : 0
                } else if let previousStart = starts[index - 1], let previousDuration = durations[index - 1] {
                    start = previousStart + previousDuration
                }
            }
            var length = try duration(period, "duration")
            if length == nil, let start {
                if index + 1 < periods.count, let nextStart = try duration(periods[index + 1], "start") {
                    length = nextStart - start
                } else if index + 1 == periods.count, let presentationDuration {
                    length = presentationDuration - start
                }
            }
            if let value = length, value < 0 {
                throw reader.failure(period.line, "Period duration is negative (\(value) s)")
            }
            starts.append(start)
            durations.append(length)
        }

        for (index, period) in periods.enumerated() {
            try addPeriod(period, index: index, base: mpdBase, duration: durations[index])
        }
        let knownDurations = durations.compactMap { $0 }
        let total =
            presentationDuration
            ?? (knownDurations.count == durations.count && !durations.isEmpty ? knownDurations.reduce(0, +) : nil)
        return DASHManifest(
            url: url, isDynamic: isDynamic, duration: total,
            minimumUpdatePeriod: try duration(root, "minimumUpdatePeriod"), periodCount: periods.count,
            locations: locations, renditions: renditions, warnings: warnings.all())
    }

    mutating func addPeriod(_ period: XMLTree.Element, index: Int, base: URL, duration: Double?) throws {
        let periodBase = try baseURL(of: period, against: base)
        let periodInfo = try DASHSegmentInfo().applying(period, reader: reader)
        for adaptationSet in period.children(named: "AdaptationSet") {
            let setBase = try baseURL(of: adaptationSet, against: periodBase)
            let setInfo = try periodInfo.applying(adaptationSet, reader: reader)
            let setProtected = adaptationSet.first("ContentProtection") != nil
            for representation in adaptationSet.children(named: "Representation") {
                try addRepresentation(
                    representation, in: adaptationSet, base: setBase, info: setInfo, setProtected: setProtected,
                    periodIndex: index, periodDuration: duration)
            }
        }
    }

    // MARK: Representations

    mutating func addRepresentation(
        _ representation: XMLTree.Element, in adaptationSet: XMLTree.Element, base: URL, info: DASHSegmentInfo,
        setProtected: Bool, periodIndex: Int, periodDuration: Double?
    ) throws {
        guard let id = representation["id"], !id.isEmpty else {
            throw reader.failure(representation.line, "Representation has no @id")
        }
        guard let bandwidth = try reader.integer(representation, "bandwidth") else {
            throw reader.failure(representation.line, "Representation '\(id)' has no @bandwidth")
        }
        guard bandwidth >= 0, bandwidth <= Int64(Int32.max) * 1000 else {
            throw reader.failure(representation.line, "Representation '\(id)' @bandwidth \(bandwidth) is out of range")
        }
        func attribute(_ name: String) -> String? { representation[name] ?? adaptationSet[name] }
        let codecs = attribute("codecs")
        let mimeType = attribute("mimeType")
        guard let kind = Self.kind(contentType: attribute("contentType"), mimeType: mimeType, codecs: codecs) else {
            warn(representation.line, "Representation '\(id)' is neither video, audio nor text; ignored")
            return
        }
        let language = attribute("lang")
        let repBase = try baseURL(of: representation, against: base)
        let repInfo = try info.applying(representation, reader: reader)
        let template = DASHTemplate(representationID: id, bandwidth: bandwidth)
        let key = "\(kind.rawValue)|\(language ?? "")|\(id)"
        let existing = index[key]
        let budget = DASHSegmentBudget(
            rendition: limits.maxSegments - (existing.map { renditions[$0].playlist.segments.count } ?? 0),
            manifest: limits.maxTotalSegments - totalSegments, limits: limits, representationID: id)
        var segments = try expand(
            repInfo, base: repBase, template: template, periodDuration: periodDuration, budget: budget,
            line: representation.line)
        totalSegments += segments.count

        if let existing {
            // Appended in place: a copy of the rendition would copy its segments for every period.
            let offset = renditions[existing].playlist.segments.count
            if !segments.isEmpty, offset > 0 { segments[0].discontinuity = true }
            for index in segments.indices { segments[index].sequenceNumber = Int64(offset + index) }
            renditions[existing].playlist.segments.append(contentsOf: segments)
            renditions[existing].playlist.targetDuration = max(
                renditions[existing].playlist.targetDuration, Self.targetDuration(segments))
            return
        }
        var resolution: Resolution?
        if let width = try reader.integer(representation, "width") ?? reader.integer(adaptationSet, "width"),
            let height = try reader.integer(representation, "height") ?? reader.integer(adaptationSet, "height"),
            width > 0, height > 0, width <= Int64(Int32.max), height <= Int64(Int32.max)
        {
            resolution = Resolution(width: Int(width), height: Int(height))
        }
        for index in segments.indices { segments[index].sequenceNumber = Int64(index) }
        let playlist = MediaPlaylist(
            url: url, targetDuration: Self.targetDuration(segments), endList: !isDynamic,
            playlistType: isDynamic ? nil : .vod, segments: segments)
        index[key] = renditions.count
        renditions.append(
            Rendition(
                id: id, type: kind, url: repBase, bandwidth: Int(bandwidth), codecs: codecs, resolution: resolution,
                frameRate: attribute("frameRate").flatMap(Self.frameRate), language: language, mimeType: mimeType,
                contentProtected: setProtected || representation.first("ContentProtection") != nil, playlist: playlist))
    }

    static func targetDuration(_ segments: [Segment]) -> Int {
        WholeSeconds.from(segments.reduce(0.0) { max($0, $1.duration) }, .up)
    }

    /// video / audio / text from `@contentType`, then `@mimeType`, then the codec names.
    static func kind(contentType: String?, mimeType: String?, codecs: String?) -> Rendition.Kind? {
        switch contentType?.lowercased() {
        case "video"?: return .video
        case "audio"?: return .audio
        case "text"?: return .text
        case "image"?: return nil
        default: break
        }
        if let mimeType = mimeType?.lowercased() {
            if mimeType.hasPrefix("video/") { return .video }
            if mimeType.hasPrefix("audio/") { return .audio }
            if mimeType.hasPrefix("text/") || mimeType.contains("ttml") { return .text }
            if mimeType.hasPrefix("image/") { return nil }
        }
        let codecList = (codecs ?? "").lowercased()
        if ["stpp", "wvtt", "ttml"].contains(where: codecList.hasPrefix) { return .text }
        if ["avc", "hvc", "hev", "vp0", "vp9", "av01", "dvh", "dva"].contains(where: codecList.hasPrefix) {
            return .video
        }
        if ["mp4a", "opus", "ac-3", "ec-3", "ac-4", "flac", "vorbis"].contains(where: codecList.hasPrefix) {
            return .audio
        }
        return nil
    }

    /// `@frameRate` is an integer or a fraction (`2997/125`); nil for anything else, an empty
    /// value included (split omitting empty parts, it gave no parts at all).
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let numerator = Double(first), numerator > 0, numerator.isFinite else { return nil }
        if parts.count == 1 { return numerator }
        guard let denominator = Double(parts[1]), denominator > 0, denominator.isFinite else { return nil }
        return numerator / denominator
    }
}
