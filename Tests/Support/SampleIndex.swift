import Foundation

/// The bundled samples as `Samples/samples.json` lists them, with their reference frame hashes.
package struct SampleIndex: Sendable {
    package struct Sample: Codable, Sendable, CustomStringConvertible {
        package var name: String
        package var entry: String
        package var packaging: String
        package var aspectRatio: String
        package var width: Int
        package var height: Int
        package var durationSeconds: Double
        package var hasAudio: Bool
        package var renditions: [Rendition]

        package var description: String { name }
    }

    package struct Rendition: Codable, Sendable {
        package var id: String
        package var playlist: String
        package var representation: String?
        package var width: Int
        package var height: Int
        package var bandwidth: Int
        package var reference: String
        package var frames: Int
    }

    package let samples: [Sample]

    /// Loads the index; a missing or broken index fails the test that asked, loudly.
    package static func load() throws -> SampleIndex {
        let url = PackagePaths.samples.appendingPathComponent("samples.json")
        let data = try Data(contentsOf: url)
        return SampleIndex(samples: try JSONDecoder().decode([Sample].self, from: data))
    }

    /// All samples, for `@Test(arguments:)`; empty only if the index cannot be read, which the
    /// `indexIsReadable` tests turn into a failure.
    package static var all: [Sample] { (try? load().samples) ?? [] }

    /// The first sample of each packaging (HLS TS, fMP4, master, AES, byte ranges, discontinuity,
    /// DASH), for checks whose path depends on how a stream is packaged rather than on its frames.
    package static var onePerPackaging: [Sample] {
        var seen: Set<String> = []
        return all.filter { seen.insert($0.packaging).inserted }
    }

    /// The md5 column of a committed `ffmpeg -f framemd5` reference file.
    package static func referenceHashes(_ path: String) throws -> [String] {
        let text = try String(contentsOf: PackagePaths.samples.appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let last = line.split(separator: ",").last else { return nil }
            return last.trimmingCharacters(in: .whitespaces)
        }
    }
}
