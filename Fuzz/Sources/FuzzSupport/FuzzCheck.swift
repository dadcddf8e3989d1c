import Foundation
import ReelCore
import ReelManifest

/// What every fuzz target checks beyond "no trap": input may be refused only with a `ReelError`
/// (anything else thrown is a finding), an internal failure is a finding even as a
/// `ReelError`, and what parses must survive the writer, the report and a second parse.
/// A finding stops the process with `fatalError`, which libFuzzer reports as a crash and saves.
public enum FuzzCheck {
    /// The URL every fuzzed manifest is parsed as, so relative URIs resolve.
    public static let manifestURL = URL(string: "https://cdn.example.com/v/manifest")!

    /// Limits a fifth of the defaults: under the defaults a 7 KB MPD may make 100,000 segments,
    /// whose JSON report alone takes some 250 MB in an instrumented build, a cost the limits
    /// already bound. Smaller limits keep each run fast and reach the refusals more often.
    public static let limits: ManifestLimits = {
        var limits = ManifestLimits.default
        limits.maxSegments = 20_000
        limits.maxTotalSegments = 50_000
        limits.maxTimelineRepeat = 20_000
        limits.maxXMLElements = 50_000
        return limits
    }()

    /// Runs `body`, accepting a `ReelError` that refuses the input.
    public static func onlyReelErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch let error as ReelError where error.code == .internalFailure {
            fatalError("an internal failure on fuzzed input: \(error)")
        } catch is ReelError {
            return
        } catch {
            fatalError("an error that is not a ReelError: \(type(of: error)): \(error)")
        }
    }

    /// Runs what playback, prefetch and `reel inspect` do with a parsed manifest: the report,
    /// the variant choice, and each rendition written as an HLS playlist for FFmpeg, which must
    /// parse again into as many segments.
    public static func exercise(_ manifest: Manifest) throws {
        _ = ManifestReport(manifest).text
        _ = try ManifestReport(manifest).jsonData()
        _ = VariantSelector.select(in: manifest, constraints: PlaybackConstraints(maxWidth: 540, maxHeight: 960))
        let playlists: [MediaPlaylist]
        switch manifest {
        case .media(let playlist): playlists = [playlist]
        case .master: playlists = []
        case .dash(let dash): playlists = dash.renditions.map(\.playlist)
        }
        for playlist in playlists {
            let written = HLSPlaylistWriter().render(playlist)
            let again: Manifest
            do {
                again = try HLSPlaylistParser.parse(Data(written.utf8), url: playlist.url, limits: limits)
            } catch {
                fatalError("the written playlist does not parse: \(error)\n\(written)")
            }
            guard case .media(let reread) = again, reread.segments.count == playlist.segments.count else {
                fatalError("the written playlist reads back differently:\n\(written)")
            }
        }
    }
}
