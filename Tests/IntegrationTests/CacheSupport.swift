import Foundation
import ReelTestSupport
import Testing

/// Helpers shared by the cache, prefetch and offline tests of the `reel` tool.
enum CacheCLI {
    /// The md5 column of `reel play --framemd5` output (ffmpeg's framemd5: its `#` header skipped).
    static func hashes(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            String(line.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    /// The reference frames of a rendition whose presentation time is within the first `seconds`
    /// of the stream (the frames of its first segments: every sample cuts segments at 2 s keyframes).
    static func referenceFrames(_ reference: String, seconds: Double) throws -> [String] {
        let text = try String(contentsOf: PackagePaths.samples.appendingPathComponent(reference), encoding: .utf8)
        var timeBase = 1.0
        var frames: [(pts: Double, md5: String)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#tb 0:") {
                let parts = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: "/")
                if parts.count == 2, let num = Double(parts[0]), let den = Double(parts[1]) { timeBase = num / den }
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 6, let pts = Double(fields[2]) else { continue }
            frames.append((pts * timeBase, fields[5]))
        }
        guard let first = frames.map(\.pts).min() else { return [] }
        return frames.filter { $0.pts - first < seconds - 0.001 }.map(\.md5)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    /// The rendition of `sample` that a play or prefetch report's variant names.
    static func rendition(of sample: SampleIndex.Sample, variant: String?, representation: String?) -> SampleIndex.Rendition? {
        sample.renditions.first { rendition in
            if let representation { return rendition.representation == representation }
            guard let variant else { return sample.renditions.count == 1 }
            return variant.hasSuffix(rendition.playlist)
        }
    }
}
