import Foundation
import ReelCore

/// The segment addressing in effect for one Representation: the `SegmentBase`, `SegmentList`
/// and `SegmentTemplate` elements of Period, AdaptationSet and Representation merged, each
/// attribute taken from the most specific level that gives it (ISO/IEC 23009-1 5.3.9.1).
struct DASHSegmentInfo {
    enum Kind {
        case base, list, template
    }

    /// One `S` element of a `SegmentTimeline`.
    struct TimelineEntry {
        var time: Int64?
        var duration: Int64
        var repeatCount: Int64
        var line: Int
    }

    /// One `SegmentURL`.
    struct SegmentURL {
        var media: String?
        var mediaRange: ByteRange?
    }

    /// The attributes one kind of element can carry; nil means "not given at any level yet".
    struct Fields {
        var timescale: Int64?
        var duration: Int64?
        var startNumber: Int64?
        var presentationTimeOffset: Int64?
        var timeline: [TimelineEntry]?
        var media: String?
        var initializationTemplate: String?
        var initialization: (sourceURL: String?, range: ByteRange?)?
        var segmentURLs: [SegmentURL]?
        var indexRange: ByteRange?
        var line = 0

        /// `self` with every attribute `child` gives replaced by the child's.
        func overridden(by child: Fields) -> Fields {
            var merged = self
            if let value = child.timescale { merged.timescale = value }
            if let value = child.duration { merged.duration = value }
            if let value = child.startNumber { merged.startNumber = value }
            if let value = child.presentationTimeOffset { merged.presentationTimeOffset = value }
            if let value = child.timeline { merged.timeline = value }
            if let value = child.media { merged.media = value }
            if let value = child.initializationTemplate { merged.initializationTemplate = value }
            if let value = child.initialization { merged.initialization = value }
            if let value = child.segmentURLs { merged.segmentURLs = value }
            if let value = child.indexRange { merged.indexRange = value }
            merged.line = child.line
            return merged
        }
    }

    /// The kind declared at the most specific level; nil when no level declares any (then the
    /// BaseURL is one segment, as for `SegmentBase`).
    var kind: Kind?
    var base: Fields?
    var list: Fields?
    var template: Fields?

    /// The fields of the effective kind.
    var effective: Fields? {
        switch kind {
        case .base?: base
        case .list?: list
        case .template?: template
        case nil: nil
        }
    }

    /// This level's info with `element`'s children (`SegmentBase`, `SegmentList`,
    /// `SegmentTemplate`) applied on top.
    func applying(_ element: XMLTree.Element, reader: DASHAttributeReader) throws -> DASHSegmentInfo {
        var next = self
        var declared: Kind?
        for child in element.children {
            switch child.name {
            case "SegmentBase":
                next.base = (next.base ?? Fields()).overridden(by: try Self.fields(child, kind: .base, reader: reader))
                declared = .base
            case "SegmentList":
                next.list = (next.list ?? Fields()).overridden(by: try Self.fields(child, kind: .list, reader: reader))
                declared = .list
            case "SegmentTemplate":
                next.template = (next.template ?? Fields()).overridden(
                    by: try Self.fields(child, kind: .template, reader: reader))
                declared = .template
            default:
                continue
            }
        }
        if let declared { next.kind = declared }
        return next
    }

    private static func fields(_ element: XMLTree.Element, kind: Kind, reader: DASHAttributeReader) throws -> Fields {
        var fields = Fields()
        fields.line = element.line
        fields.timescale = try reader.positiveInteger(element, "timescale")
        fields.presentationTimeOffset = try reader.nonNegativeInteger(element, "presentationTimeOffset")
        if kind != .base {
            fields.duration = try reader.positiveInteger(element, "duration")
            fields.startNumber = try reader.nonNegativeInteger(element, "startNumber")
        }
        if let text = element["indexRange"] { fields.indexRange = try reader.range(text, element, "indexRange") }
        if let initialization = element.first("Initialization") {
            let range = try initialization["range"].map { try reader.range($0, initialization, "range") }
            fields.initialization = (initialization["sourceURL"], range)
        }
        if let timeline = element.first("SegmentTimeline") {
            fields.timeline = try timeline.children(named: "S").map { entry in
                guard let duration = try reader.positiveInteger(entry, "d") else {
                    throw reader.failure(entry.line, "S element has no @d")
                }
                let repeatCount = try reader.integer(entry, "r") ?? 0
                guard repeatCount >= -1 else {
                    throw reader.failure(entry.line, "S@r '\(repeatCount)' is below -1")
                }
                return TimelineEntry(
                    time: try reader.nonNegativeInteger(entry, "t"), duration: duration, repeatCount: repeatCount, line: entry.line)
            }
        }
        switch kind {
        case .template:
            fields.media = element["media"]
            fields.initializationTemplate = element["initialization"]
        case .list:
            let urls = try element.children(named: "SegmentURL").map { url in
                SegmentURL(
                    media: url["media"],
                    mediaRange: try url["mediaRange"].map { try reader.range($0, url, "mediaRange") })
            }
            if !urls.isEmpty { fields.segmentURLs = urls }
        case .base:
            break
        }
        return fields
    }
}
