import Foundation
import ReelCore

/// Parses a DASH MPD (ISO/IEC 23009-1) into renditions with resolved segment lists. The XML is
/// read with Foundation's `XMLParser`. Each Representation becomes one rendition keyed by
/// (type, language, `@id`); a rendition present in several periods gets its segments
/// concatenated in period order, the first segment of each later period marked as a
/// discontinuity.
public enum DASHManifestParser {
    /// The most segments one representation may expand to; more is treated as malformed
    /// (a timeline repeat or a tiny duration that would exhaust memory).
    public static let maxSegmentsPerRendition = 1_000_000

    /// Parses `data` loaded from `url`. Throws `ReelError` `.malformedManifest` naming the URL,
    /// the line and the cause.
    public static func parse(_ data: Data, url: URL) throws -> DASHManifest {
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(data)
        } catch let failure as XMLTree.ParseFailure {
            throw ReelError(
                .malformedManifest, "\(url.absoluteString) line \(failure.line): \(failure.reason)")
        }
        do {
            var builder = DASHBuilder(url: url)
            return try builder.build(tree.root)
        } catch let failure as DASHFailure {
            throw ReelError(.malformedManifest, "\(url.absoluteString) line \(failure.line): \(failure.message)")
        }
    }
}

/// The state of one MPD walk.
private struct DASHBuilder {
    let url: URL
    let reader: DASHAttributeReader
    var warnings: [ManifestWarning] = []
    var order: [String] = []
    var renditions: [String: Rendition] = [:]
    var isDynamic = false

    init(url: URL) {
        self.url = url
        self.reader = DASHAttributeReader(url: url)
    }

    mutating func warn(_ line: Int, _ message: String) {
        warnings.append(ManifestWarning(line: line, message))
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
            locations: locations, renditions: order.compactMap { renditions[$0] }, warnings: warnings)
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
        var segments = try expand(
            repInfo, base: repBase, template: template, periodDuration: periodDuration, line: representation.line)

        let key = "\(kind.rawValue)|\(language ?? "")|\(id)"
        var resolution: Resolution?
        if let width = try reader.integer(representation, "width") ?? reader.integer(adaptationSet, "width"),
            let height = try reader.integer(representation, "height") ?? reader.integer(adaptationSet, "height"),
            width > 0, height > 0, width <= Int64(Int32.max), height <= Int64(Int32.max)
        {
            resolution = Resolution(width: Int(width), height: Int(height))
        }
        if var existing = renditions[key] {
            let offset = existing.playlist.segments.count
            if !segments.isEmpty, offset > 0 { segments[0].discontinuity = true }
            for index in segments.indices { segments[index].sequenceNumber = Int64(offset + index) }
            existing.playlist.segments += segments
            existing.playlist.targetDuration = max(existing.playlist.targetDuration, Self.targetDuration(segments))
            renditions[key] = existing
            return
        }
        for index in segments.indices { segments[index].sequenceNumber = Int64(index) }
        let playlist = MediaPlaylist(
            url: url, targetDuration: Self.targetDuration(segments), endList: !isDynamic,
            playlistType: isDynamic ? nil : .vod, segments: segments)
        order.append(key)
        renditions[key] = Rendition(
            id: id, type: kind, url: repBase, bandwidth: Int(bandwidth), codecs: codecs, resolution: resolution,
            frameRate: attribute("frameRate").flatMap(Self.frameRate), language: language, mimeType: mimeType,
            contentProtected: setProtected || representation.first("ContentProtection") != nil, playlist: playlist)
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

    /// `@frameRate` is an integer or a fraction (`2997/125`).
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let numerator = Double(parts[0]), numerator > 0 else { return nil }
        if parts.count == 1 { return numerator }
        guard let denominator = Double(parts[1]), denominator > 0 else { return nil }
        return numerator / denominator
    }

    // MARK: Segments

    mutating func expand(
        _ info: DASHSegmentInfo, base: URL, template: DASHTemplate, periodDuration: Double?, line: Int
    ) throws -> [Segment] {
        guard let kind = info.kind, let fields = info.effective else {
            return [try wholeResource(base: base, fields: nil, template: template, periodDuration: periodDuration, line: line)]
        }
        switch kind {
        case .base:
            return [try wholeResource(base: base, fields: fields, template: template, periodDuration: periodDuration, line: line)]
        case .template:
            return try expandTemplate(fields, base: base, template: template, periodDuration: periodDuration)
        case .list:
            return try expandList(fields, base: base, template: template, periodDuration: periodDuration)
        }
    }

    /// `SegmentBase`, or no addressing at all: the BaseURL is one segment covering the resource.
    mutating func wholeResource(
        base: URL, fields: DASHSegmentInfo.Fields?, template: DASHTemplate, periodDuration: Double?, line: Int
    ) throws -> Segment {
        if periodDuration == nil {
            warn(line, "Representation '\(template.representationID)' is one segment in a period of unknown duration; its duration is 0")
        }
        let initSection = try initialization(fields, base: base, template: template)
        return Segment(uri: base.absoluteString, resolvedURL: base, duration: periodDuration ?? 0, initSection: initSection)
    }

    func initialization(_ fields: DASHSegmentInfo.Fields?, base: URL, template: DASHTemplate) throws -> InitSection? {
        guard let fields else { return nil }
        if let text = fields.initializationTemplate {
            let uri = template.fill(text)
            return InitSection(uri: uri, resolvedURL: try resolve(uri, against: base, line: fields.line))
        }
        if let initialization = fields.initialization {
            let uri = initialization.sourceURL.map { template.fill($0) } ?? ""
            return InitSection(
                uri: uri.isEmpty ? base.absoluteString : uri, resolvedURL: try resolve(uri, against: base, line: fields.line),
                byteRange: initialization.range)
        }
        return nil
    }

    /// (media time, duration) pairs in timescale units from a `SegmentTimeline`, `r=-1`
    /// repeating up to the next `S@t` or the end of the period.
    mutating func timelineEntries(
        _ timeline: [DASHSegmentInfo.TimelineEntry], timescale: Int64, presentationTimeOffset: Int64,
        periodDuration: Double?, line: Int
    ) throws -> [(time: Int64, duration: Int64)] {
        var result: [(time: Int64, duration: Int64)] = []
        var time: Int64 = timeline.first?.time ?? 0
        for (index, entry) in timeline.enumerated() {
            if let explicit = entry.time { time = explicit }
            var count: Int64
            if entry.repeatCount >= 0 {
                count = entry.repeatCount + 1
            } else if index + 1 < timeline.count, let nextTime = timeline[index + 1].time {
                count = try repeats(until: Double(nextTime), from: time, duration: entry.duration, line: entry.line)
            } else if let periodDuration {
                let end = Double(presentationTimeOffset) + periodDuration * Double(timescale)
                count = try repeats(until: end, from: time, duration: entry.duration, line: entry.line)
            } else {
                warn(entry.line, "S@r=-1 in a period of unknown duration; repeated once")
                count = 1
            }
            guard count <= Int64(DASHManifestParser.maxSegmentsPerRendition - result.count) else {
                throw reader.failure(entry.line, "SegmentTimeline expands to more than \(DASHManifestParser.maxSegmentsPerRendition) segments")
            }
            for _ in 0..<count {
                result.append((time, entry.duration))
                time &+= entry.duration
            }
        }
        return result
    }

    /// How many `S@d` segments from `time` reach `end` (at least one), refusing absurd counts
    /// before converting, so no arithmetic can trap.
    func repeats(until end: Double, from time: Int64, duration: Int64, line: Int) throws -> Int64 {
        let exact = ((end - Double(time)) / Double(duration)).rounded(.up)
        guard exact <= Double(DASHManifestParser.maxSegmentsPerRendition) else {
            throw reader.failure(line, "SegmentTimeline expands to more than \(DASHManifestParser.maxSegmentsPerRendition) segments")
        }
        return exact < 1 ? 1 : Int64(exact)
    }

    /// How many `@duration` segments fill the period (the last one is cut at the period end).
    mutating func segmentCount(duration: Int64, timescale: Int64, periodDuration: Double?, line: Int) throws -> Int? {
        guard let periodDuration else { return nil }
        let exact = periodDuration * Double(timescale) / Double(duration)
        // Tolerate rounding in the period duration: 5.9999999 segments is 6.
        let count = (exact - 1e-6).rounded(.up)
        guard count <= Double(DASHManifestParser.maxSegmentsPerRendition) else {
            throw reader.failure(line, "@duration \(duration) fills the period with more than \(DASHManifestParser.maxSegmentsPerRendition) segments")
        }
        return count <= 0 ? 0 : Int(count)
    }

    mutating func expandTemplate(
        _ fields: DASHSegmentInfo.Fields, base: URL, template: DASHTemplate, periodDuration: Double?
    ) throws -> [Segment] {
        guard let media = fields.media else {
            throw reader.failure(fields.line, "SegmentTemplate has no @media")
        }
        let timescale = fields.timescale ?? 1
        let offset = fields.presentationTimeOffset ?? 0
        let startNumber = fields.startNumber ?? 1
        let initSection = try initialization(fields, base: base, template: template)
        var segments: [Segment] = []
        func add(number: Int64, time: Int64, duration: Double) throws {
            let uri = template.fill(media, number: number, time: time)
            segments.append(
                Segment(
                    uri: uri, resolvedURL: try resolve(uri, against: base, line: fields.line), duration: duration,
                    initSection: initSection))
        }
        if let timeline = fields.timeline {
            let entries = try timelineEntries(
                timeline, timescale: timescale, presentationTimeOffset: offset, periodDuration: periodDuration,
                line: fields.line)
            for (index, entry) in entries.enumerated() {
                try add(
                    number: startNumber &+ Int64(index), time: entry.time,
                    duration: Double(entry.duration) / Double(timescale))
            }
        } else if let duration = fields.duration {
            guard let count = try segmentCount(
                duration: duration, timescale: timescale, periodDuration: periodDuration, line: fields.line)
            else {
                warn(fields.line, "SegmentTemplate@duration in a period of unknown duration (live) needs a clock; no segments listed")
                return []
            }
            let nominal = Double(duration) / Double(timescale)
            for index in 0..<count {
                var length = nominal
                if index == count - 1, let periodDuration {
                    length = min(nominal, periodDuration - Double(index) * nominal)
                }
                try add(
                    number: startNumber &+ Int64(index), time: offset &+ Int64(index) &* duration, duration: length)
            }
        } else {
            try add(number: startNumber, time: offset, duration: periodDuration ?? 0)
        }
        return segments
    }

    mutating func expandList(
        _ fields: DASHSegmentInfo.Fields, base: URL, template: DASHTemplate, periodDuration: Double?
    ) throws -> [Segment] {
        let urls = fields.segmentURLs ?? []
        let timescale = fields.timescale ?? 1
        let initSection = try initialization(fields, base: base, template: template)
        var durations: [Double]
        if let timeline = fields.timeline {
            let entries = try timelineEntries(
                timeline, timescale: timescale, presentationTimeOffset: fields.presentationTimeOffset ?? 0,
                periodDuration: periodDuration, line: fields.line)
            durations = entries.prefix(urls.count).map { Double($0.duration) / Double(timescale) }
            if entries.count < urls.count {
                warn(fields.line, "SegmentList has \(urls.count) SegmentURLs but its timeline only \(entries.count) entries; the extra URLs are ignored")
            }
        } else if let duration = fields.duration {
            let nominal = Double(duration) / Double(timescale)
            let count = try segmentCount(
                duration: duration, timescale: timescale, periodDuration: periodDuration, line: fields.line)
            let used = min(urls.count, count ?? urls.count)
            durations = (0..<used).map { index in
                guard index == used - 1, let periodDuration, used == count else { return nominal }
                return min(nominal, periodDuration - Double(index) * nominal)
            }
        } else if urls.count <= 1 {
            durations = urls.isEmpty ? [] : [periodDuration ?? 0]
        } else {
            throw reader.failure(fields.line, "SegmentList with \(urls.count) SegmentURLs has neither @duration nor a SegmentTimeline")
        }
        var segments: [Segment] = []
        segments.reserveCapacity(durations.count)
        for (index, duration) in durations.enumerated() {
            let entry = urls[index]
            let uri = entry.media ?? ""
            segments.append(
                Segment(
                    uri: uri.isEmpty ? base.absoluteString : uri,
                    resolvedURL: try resolve(uri, against: base, line: fields.line), duration: duration,
                    byteRange: entry.mediaRange, initSection: initSection))
        }
        return segments
    }
}
