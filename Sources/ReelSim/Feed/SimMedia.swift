import Foundation
import ReelCore
import ReelManifest

/// One video as the simulation knows it: what resolving it fetches (its manifests), its variants
/// (bitrate and picture size), and each segment's media time and bytes at each variant. Read
/// once from the files a feed serves, so the simulated bytes are the real ones.
package struct SimStream: Sendable {
    package struct Variant: Sendable {
        /// How reports name it: its media playlist's URL (a rendition's, for an MPD).
        package var name: String
        package var bandwidth: Int
        package var resolution: Resolution?
        /// Bytes of the variant's own media playlist (0 when the manifest itself lists segments).
        package var playlistBytes: Int
        package var initBytes: Int
        /// Each segment's bytes and where it is fetched from (its URL, for events).
        package var segmentBytes: [Int]
        package var segmentURLs: [String]

        package init(name: String, bandwidth: Int, resolution: Resolution?, playlistBytes: Int, initBytes: Int,
                     segmentBytes: [Int], segmentURLs: [String]) {
            self.name = name
            self.bandwidth = bandwidth
            self.resolution = resolution
            self.playlistBytes = playlistBytes
            self.initBytes = initBytes
            self.segmentBytes = segmentBytes
            self.segmentURLs = segmentURLs
        }
    }

    package var url: String
    /// Bytes of the manifest the play starts from (a master, a media playlist or an MPD).
    package var manifestBytes: Int
    package var variants: [Variant]
    package var segmentDurations: [Double]
    /// A master of variants the play switches among at segment boundaries (adaptive bitrate);
    /// false for a single stream or an MPD, which keeps its start variant.
    package var switches: Bool

    package var duration: Double { segmentDurations.reduce(0, +) }

    package init(url: String, manifestBytes: Int, variants: [Variant], segmentDurations: [Double], switches: Bool) {
        self.url = url
        self.manifestBytes = manifestBytes
        self.variants = variants
        self.segmentDurations = segmentDurations
        self.switches = switches
    }

    /// A variant's resource keys, for the simulated cache.
    package func playlistKey(_ variant: Int) -> String { "\(url)|v\(variant)|playlist" }
    package func initKey(_ variant: Int) -> String { "\(url)|v\(variant)|init" }
    package func segmentKey(_ variant: Int, _ segment: Int) -> String { "\(url)|v\(variant)|\(segment)" }
}

/// The streams of a feed, by the absolute URL its catalog names them with.
package struct SimMediaCatalog: Sendable {
    package var streams: [String: SimStream]
    /// Bytes of served images by path (thumbnails and merch images), for their transfers.
    package var imageBytes: [String: Int]
    /// The size assumed for an image the folder does not hold.
    package var defaultImageBytes = 20_000

    package init(streams: [String: SimStream], imageBytes: [String: Int] = [:]) {
        self.streams = streams
        self.imageBytes = imageBytes
    }

    /// Reads every stream `urls` names (absolute URLs under `baseURL`) from `folder`, which
    /// serves them: manifests parsed as playback parses them, segment sizes from the files (or
    /// their byte ranges). A stream that cannot be read is an error naming it.
    package static func load(folder: URL, baseURL: URL, urls: [URL], limits: ManifestLimits = .default) throws -> SimMediaCatalog {
        var streams: [String: SimStream] = [:]
        let local: @Sendable (URL) -> URL = { url in
            let relative = url.absoluteString.hasPrefix(baseURL.absoluteString)
                ? String(url.absoluteString.dropFirst(baseURL.absoluteString.count)) : url.path
            let path = relative.split(separator: "?", maxSplits: 1).first.map(String.init) ?? relative
            return folder.appendingPathComponent(path.removingPercentEncoding ?? path)
        }
        let fetch: ManifestLoader.Fetch = { spec in
            let file = local(spec.url)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw ReelError(.notFound, "the simulation cannot read '\(file.path)' (for '\(spec.url.absoluteString)')")
            }
            return data
        }
        let size = { (url: URL) -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: local(url).path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        let loader = ManifestLoader(limits: limits, fetch: fetch)
        for url in Set(urls.map(\.absoluteString)).sorted() {
            guard let absolute = URL(string: url) else { continue }
            let manifest = try loader.loadDeep(absolute)
            let manifestBytes = try fetch(DataSpec(url: absolute, kind: .playlist)).count
            streams[url] = try stream(manifest, url: url, manifestBytes: manifestBytes, fetch: fetch, size: size)
        }
        var images: [String: Int] = [:]
        let imagesFolder = folder.appendingPathComponent("images")
        if let paths = FileManager.default.subpaths(atPath: imagesFolder.path) {
            for path in paths {
                let file = imagesFolder.appendingPathComponent(path)
                if let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber {
                    images["images/" + path] = bytes.intValue
                }
            }
        }
        return SimMediaCatalog(streams: streams, imageBytes: images)
    }

    private static func stream(_ manifest: Manifest, url: String, manifestBytes: Int, fetch: ManifestLoader.Fetch,
                               size: (URL) -> Int) throws -> SimStream {
        func bytes(_ segment: Segment) -> Int { segment.byteRange.map { Int($0.length) } ?? size(segment.resolvedURL) }
        func initBytes(_ segments: [Segment]) -> Int {
            guard let initSection = segments.first?.initSection else { return 0 }
            return initSection.byteRange.map { Int($0.length) } ?? size(initSection.resolvedURL)
        }
        switch manifest {
        case .media(let playlist):
            let variant = SimStream.Variant(name: url, bandwidth: 0, resolution: nil, playlistBytes: 0, initBytes: initBytes(playlist.segments),
                                            segmentBytes: playlist.segments.map(bytes), segmentURLs: playlist.segments.map(\.resolvedString))
            return SimStream(url: url, manifestBytes: manifestBytes, variants: [variant],
                             segmentDurations: playlist.segments.map(\.duration), switches: false)
        case .master(let master):
            var variants: [SimStream.Variant] = []
            var durations: [Double] = []
            for variant in master.variants {
                let data = try fetch(variant.dataSpec)
                guard case .media(let playlist) = try ManifestLoader.parse(data, url: variant.resolvedURL) else {
                    throw ReelError(.malformedPlaylist, "variant '\(variant.resolvedURL.absoluteString)' is not a media playlist")
                }
                if durations.isEmpty { durations = playlist.segments.map(\.duration) }
                variants.append(SimStream.Variant(name: variant.resolvedURL.absoluteString, bandwidth: variant.bandwidth, resolution: variant.resolution, playlistBytes: data.count,
                                                  initBytes: initBytes(playlist.segments), segmentBytes: playlist.segments.map(bytes),
                                                  segmentURLs: playlist.segments.map(\.resolvedString)))
            }
            let aligned = variants.allSatisfy { $0.segmentBytes.count == durations.count }
            let switches = aligned && master.variants.count > 1 && variants.allSatisfy { $0.initBytes == 0 }
            return SimStream(url: url, manifestBytes: manifestBytes, variants: variants, segmentDurations: durations, switches: switches)
        case .dash(let dash):
            let renditions = dash.videoRenditions
            var durations: [Double] = []
            let variants = renditions.map { rendition -> SimStream.Variant in
                let segments = rendition.playlist.segments
                if durations.isEmpty { durations = segments.map(\.duration) }
                return SimStream.Variant(name: "\(rendition.url.absoluteString)#\(rendition.id)", bandwidth: rendition.bandwidth ?? 0, resolution: rendition.resolution, playlistBytes: 0,
                                         initBytes: initBytes(segments), segmentBytes: segments.map(bytes),
                                         segmentURLs: segments.map(\.resolvedString))
            }
            return SimStream(url: url, manifestBytes: manifestBytes, variants: variants, segmentDurations: durations, switches: false)
        }
    }

    /// Bytes of the image at `url` (its path under the base, query ignored).
    package func imageBytes(_ url: URL, baseURL: URL) -> Int {
        let text = url.absoluteString.hasPrefix(baseURL.absoluteString)
            ? String(url.absoluteString.dropFirst(baseURL.absoluteString.count)) : url.path
        let path = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
        return imageBytes[path] ?? defaultImageBytes
    }
}
