import Foundation
import ReelCore

/// Loads manifests through a blocking fetch function: detects HLS or DASH from the content,
/// parses within `limits` (the body's size first), and deep-loads a master's media playlists.
/// Runs on the caller's thread (a dedicated one: `fetch` blocks).
public struct ManifestLoader: Sendable {
    /// Returns the whole body of `spec` or throws (a `ReelError` from the network layer).
    public typealias Fetch = @Sendable (DataSpec) throws -> Data

    /// What a manifest may make the parsers build (`manifest.*`).
    public var limits: ManifestLimits
    private let fetch: Fetch

    public init(limits: ManifestLimits = .default, fetch: @escaping Fetch) {
        self.limits = limits
        self.fetch = fetch
    }

    /// Fetches and parses `url`. A master is returned without its media playlists.
    public func load(_ url: URL) throws -> Manifest {
        try Self.parse(try fetchBody(url), url: url, limits: limits)
    }

    /// Like `load`, then for a master loads every variant's media playlist and every alternate
    /// media playlist (each URL once, manifest order) into `MasterPlaylist.renditions`.
    public func loadDeep(_ url: URL) throws -> Manifest {
        let manifest = try load(url)
        guard case .master(let master) = manifest else { return manifest }
        return .master(try deepLoad(master))
    }

    /// Loads the media playlists of `master` into its `renditions`. A child that is itself a
    /// master (or points back up the chain) is an error naming both URLs.
    public func deepLoad(_ master: MasterPlaylist) throws -> MasterPlaylist {
        var loaded = master
        var seen: Set<String> = []
        var renditions: [Rendition] = []
        for variant in master.variants where seen.insert(Self.identity(variant.resolvedURL)).inserted {
            let playlist = try loadChild(variant.resolvedURL, of: master)
            renditions.append(
                Rendition(
                    id: variant.uri, type: Self.kind(codecs: variant.codecs), url: variant.resolvedURL,
                    bandwidth: variant.bandwidth, codecs: variant.codecs, resolution: variant.resolution,
                    frameRate: variant.frameRate, playlist: playlist))
        }
        for media in master.media {
            guard let url = media.resolvedURL, let uri = media.uri, seen.insert(Self.identity(url)).inserted else {
                continue
            }
            let playlist = try loadChild(url, of: master)
            let kind: Rendition.Kind =
                switch media.type {
                case .audio: .audio
                case .video: .video
                case .subtitles, .closedCaptions: .text
                }
            renditions.append(
                Rendition(id: uri, type: kind, url: url, language: media.language, playlist: playlist))
        }
        loaded.renditions = renditions
        return loaded
    }

    /// Fetches and parses a media playlist (a chosen variant, or a live reload).
    public func loadMediaPlaylist(_ url: URL) throws -> MediaPlaylist {
        switch try load(url) {
        case .media(let playlist):
            return playlist
        case .master:
            throw ReelError(.malformedPlaylist, "\(url.absoluteString) is a master playlist where a media playlist was expected")
        case .dash:
            throw ReelError(.malformedPlaylist, "\(url.absoluteString) is a DASH MPD where an HLS media playlist was expected")
        }
    }

    /// Detects and parses bytes already fetched from `url`.
    public static func parse(_ data: Data, url: URL, limits: ManifestLimits = .default) throws -> Manifest {
        guard data.count <= limits.maxPlaylistBytes else {
            throw ReelError(
                .invalidInput,
                "\(url.absoluteString) is \(data.count) bytes, over the \(limits.maxPlaylistBytes)-byte playlist limit (manifest.maxPlaylistBytes)")
        }
        switch ManifestContent.detect(data, url: url) {
        case .hls:
            let manifest = try HLSPlaylistParser.parse(data, url: url, limits: limits)
            if case .master(let master) = manifest { try checkNoSelfReference(master) }
            return manifest
        case .dash:
            return .dash(try DASHManifestParser.parse(data, url: url, limits: limits))
        case .binary(let looksLike), .notAPlaylist(let looksLike):
            throw ReelError(.notAPlaylist, "\(url.absoluteString) is not a playlist: it is \(looksLike)")
        }
    }

    // MARK: Helpers

    private func fetchBody(_ url: URL) throws -> Data {
        do {
            return try fetch(DataSpec(url: url, kind: .playlist))
        } catch let error as ReelError {
            throw error
        } catch {
            throw ReelError(.networkFailed, "fetching playlist \(url.absoluteString) failed", cause: error)
        }
    }

    private func loadChild(_ url: URL, of master: MasterPlaylist) throws -> MediaPlaylist {
        switch try load(url) {
        case .media(let playlist):
            return playlist
        case .master(let child):
            let pointsBack =
                child.variants.contains { Self.identity($0.resolvedURL) == Self.identity(master.url) }
                || child.media.contains { $0.resolvedURL.map(Self.identity) == Self.identity(master.url) }
            if pointsBack {
                throw ReelError(
                    .malformedPlaylist,
                    "playlist loop: \(master.url.absoluteString) -> \(url.absoluteString) -> \(master.url.absoluteString)")
            }
            throw ReelError(
                .malformedPlaylist,
                "variant \(url.absoluteString) of master \(master.url.absoluteString) is itself a master playlist")
        case .dash:
            throw ReelError(
                .malformedPlaylist,
                "variant \(url.absoluteString) of master \(master.url.absoluteString) is a DASH MPD, not an HLS media playlist")
        }
    }

    /// A master that lists its own URL would load itself forever.
    private static func checkNoSelfReference(_ master: MasterPlaylist) throws {
        let own = identity(master.url)
        let children = master.variants.map(\.resolvedURL) + master.iFrameVariants.map(\.resolvedURL)
            + master.media.compactMap(\.resolvedURL)
        if children.contains(where: { identity($0) == own }) {
            throw ReelError(
                .malformedPlaylist, "master playlist \(master.url.absoluteString) lists itself as a variant (a loop)")
        }
    }

    /// The URL without its fragment: what identifies a fetched resource.
    private static func identity(_ url: URL) -> String {
        DataSpec.defaultCacheKey(url: url, offset: 0, length: nil)
    }

    /// `.audio` when every codec in `CODECS` is an audio codec, else `.video`.
    static func kind(codecs: String?) -> Rendition.Kind {
        guard let codecs, !codecs.isEmpty else { return .video }
        let audio = ["mp4a", "ac-3", "ec-3", "opus", "flac", "mp3", "ac-4", "alac"]
        let all = codecs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return all.allSatisfy { codec in audio.contains { codec.hasPrefix($0) } } ? .audio : .video
    }
}
