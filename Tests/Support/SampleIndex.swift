import Foundation

/// The bundled samples as `Samples/samples.json` lists them, with their reference frame hashes.
public struct SampleIndex: Sendable {
    public struct Sample: Codable, Sendable, CustomStringConvertible {
        public var name: String
        public var entry: String
        public var packaging: String
        public var aspectRatio: String
        public var width: Int
        public var height: Int
        public var durationSeconds: Double
        public var hasAudio: Bool
        public var renditions: [Rendition]

        public var description: String { name }
    }

    public struct Rendition: Codable, Sendable {
        public var id: String
        public var playlist: String
        public var representation: String?
        public var width: Int
        public var height: Int
        public var bandwidth: Int
        public var reference: String
        public var frames: Int
    }

    public let samples: [Sample]

    /// Loads the index; a missing or broken index fails the test that asked, loudly.
    public static func load() throws -> SampleIndex {
        let url = PackagePaths.samples.appendingPathComponent("samples.json")
        let data = try Data(contentsOf: url)
        return SampleIndex(samples: try JSONDecoder().decode([Sample].self, from: data))
    }

    /// All samples, for `@Test(arguments:)`; empty only if the index cannot be read, which the
    /// `indexIsReadable` tests turn into a failure.
    public static var all: [Sample] { (try? load().samples) ?? [] }

    /// The md5 column of a committed `ffmpeg -f framemd5` reference file.
    public static func referenceHashes(_ path: String) throws -> [String] {
        let text = try String(contentsOf: PackagePaths.samples.appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let last = line.split(separator: ",").last else { return nil }
            return last.trimmingCharacters(in: .whitespaces)
        }
    }
}
