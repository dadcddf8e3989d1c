import Foundation
import ReelCore

/// The table `reel inspect` prints: the variants, then one line per rendition with its segment
/// count, seconds, init section, key methods and byte ranges. Made from the manifest itself, so
/// printing it builds no entry per segment (the JSON `ManifestReport` does, and a million
/// segments' entries cost hundreds of megabytes).
public struct ManifestSummary: Sendable {
    struct RenditionRow {
        var id: String
        var type: String
        var segments: Int
        var seconds: Double
        var hasInit: Bool
        var keyMethods: [String]
        var hasRanges: Bool
        var url: String
    }

    let type: ManifestReport.Kind
    let variants: [ManifestReport.VariantEntry]
    let renditions: [RenditionRow]

    public init(_ manifest: Manifest) {
        type = ManifestReport.Kind(manifest)
        variants = ManifestReport.variantEntries(manifest)
        renditions = manifest.renditions.map { rendition in
            let segments = rendition.segments
            return RenditionRow(
                id: rendition.id, type: rendition.type.rawValue, segments: segments.count,
                seconds: segments.reduce(0.0) { $0 + $1.duration }, hasInit: segments.contains { $0.initSection != nil },
                keyMethods: Set(segments.compactMap { $0.key?.method }).sorted(),
                hasRanges: segments.contains { $0.byteRange != nil }, url: rendition.url.absoluteString)
        }
    }

    init(_ report: ManifestReport) {
        type = report.type
        variants = report.variants
        renditions = report.renditions.map { rendition in
            let segments = rendition.segments
            return RenditionRow(
                id: rendition.id, type: rendition.type, segments: segments.count,
                seconds: segments.reduce(0.0) { $0 + $1.duration }, hasInit: segments.contains { $0.map != nil },
                keyMethods: Set(segments.compactMap { $0.key?.method }).sorted(),
                hasRanges: segments.contains { $0.byteRange != nil }, url: rendition.resolvedURI)
        }
    }

    public var text: String {
        var lines = ["type: \(type.rawValue)"]
        if !variants.isEmpty {
            lines.append("variants: \(variants.count)")
            var rows = [["#", "bandwidth", "resolution", "codecs", "audio", "uri"]]
            for (index, variant) in variants.enumerated() {
                let resolution = variant.width.flatMap { width in variant.height.map { "\(width)x\($0)" } } ?? "-"
                rows.append([
                    "\(index)", "\(variant.bandwidth)", resolution, variant.codecs ?? "-", variant.audioGroup ?? "-",
                    variant.uri,
                ])
            }
            lines += Self.table(rows, rightAligned: [1])
        }
        lines.append("renditions: \(renditions.count)")
        if !renditions.isEmpty {
            var rows = [["id", "type", "segments", "seconds", "init", "key", "ranges", "url"]]
            for rendition in renditions {
                rows.append([
                    rendition.id, rendition.type, "\(rendition.segments)", String(format: "%.3f", rendition.seconds),
                    rendition.hasInit ? "yes" : "no",
                    rendition.keyMethods.isEmpty ? "-" : rendition.keyMethods.joined(separator: ","),
                    rendition.hasRanges ? "yes" : "no", rendition.url,
                ])
            }
            lines += Self.table(rows, rightAligned: [2, 3])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per segment of every rendition, handed to `body` one at a time (a million
    /// segments cost a million lines, not a string of them): its sequence number, duration,
    /// URI as written, then its byte range, key, init section and discontinuity when it has them.
    public static func segmentLines(_ manifest: Manifest, _ body: (String) -> Void) {
        for rendition in manifest.renditions {
            body("segments of \(rendition.id) (\(rendition.type.rawValue)):")
            var lastInit: String?
            for (index, segment) in rendition.segments.enumerated() {
                var line = "  \(String(index).leftPadded(5))  \(String(format: "%7.3f", segment.duration))  \(segment.uri)"
                if let range = segment.byteRange { line += "  bytes \(range.offset)-\(range.offset + range.length - 1)" }
                if let key = segment.key { line += "  key \(key.method)" }
                if let initSection = segment.initSection, initSection.uri != lastInit {
                    line += "  init \(initSection.uri)"
                    lastInit = initSection.uri
                }
                if segment.discontinuity { line += "  discontinuity" }
                body(line)
            }
        }
    }

    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }.map { "  " + $0 }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
