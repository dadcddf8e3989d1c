import ReelCore
/// How far a card is prepared ahead of its play, lowest first: nothing, its manifests fetched,
/// the first `preload.mediaMs` of its media on disk, or a mounted player holding its first
/// frame decoded (Media3's preload stages, in Reel's terms).
public enum PreloadStage: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    case none, manifest, media, firstFrame

    public static func < (a: PreloadStage, b: PreloadStage) -> Bool { a.rawValue < b.rawValue }

    /// The name in events, summaries and configuration.
    public var description: String {
        switch self {
        case .none: "none"
        case .manifest: "manifest"
        case .media: "media"
        case .firstFrame: "firstFrame"
        }
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let stage = Self.allCases.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown preload stage '\(name)'"))
        }
        self = stage
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
