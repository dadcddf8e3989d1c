import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// `reel inspect` on the bundled samples and on bad input.
@Suite("reel inspect")
struct InspectCommandTests {
    func inspect(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await ReelProcess.run(["inspect"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: SampleIndex.all)
    func describesEverySample(sample: SampleIndex.Sample) async throws {
        try await withSampleServer { server in
            let url = server.url(for: sample.entry).absoluteString
            let report = try await inspect([url, "--deep"])
            let type = report["type"] as? String
            let expectedType = switch sample.packaging {
            case "hls-master": "hls-master"
            case "dash": "dash"
            default: "hls-media"
            }
            #expect(type == expectedType)
            let renditions = try #require(report["renditions"] as? [[String: Any]])
            let videoRenditions = renditions.filter { ($0["type"] as? String ?? "video") == "video" }
            #expect(videoRenditions.count == sample.renditions.count)
            for rendition in renditions {
                let segments = try #require(rendition["segments"] as? [[String: Any]])
                let seconds = segments.reduce(0.0) { $0 + ($1["duration"] as? Double ?? 0) }
                #expect(abs(seconds - sample.durationSeconds) < 0.6, "\(sample.name): \(seconds) s of segments")
                for segment in segments {
                    let resolved = try #require(segment["resolvedURI"] as? String)
                    #expect(resolved.hasPrefix(server.baseURL.absoluteString))
                    #expect(segment.keys.contains("byteRange") && segment.keys.contains("key") && segment.keys.contains("map"))
                }
            }
            if sample.packaging == "hls-aes" {
                let key = renditions.first.flatMap { ($0["segments"] as? [[String: Any]])?.first?["key"] as? [String: Any] }
                #expect(key?["method"] as? String == "AES-128")
            }
            if sample.packaging == "hls-byterange" {
                let range = renditions.first.flatMap { ($0["segments"] as? [[String: Any]])?.dropFirst().first?["byteRange"] as? [String: Any] }
                #expect((range?["offset"] as? Int ?? 0) > 0)
            }
        }
    }

    @Test func aMasterWithoutDeepListsVariantsOnly() async throws {
        let report = try await inspect([PackagePaths.samples.appendingPathComponent("streams/s03/master.m3u8").path])
        #expect((report["variants"] as? [Any])?.count == 3)
        #expect((report["renditions"] as? [Any])?.isEmpty == true)
    }

    @Test func badInputIsOneClearLine() async throws {
        let missing = try await ReelProcess.run(["inspect", "/no/such/playlist.m3u8"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/no/such/playlist.m3u8"))
        let notAPlaylist = try await ReelProcess.run(["inspect", PackagePaths.samples.appendingPathComponent("images/merch/m1.jpg").path])
        #expect(notAPlaylist.status == 4)
        #expect(notAPlaylist.stderr.contains("JPEG"))
        #expect(notAPlaylist.stderr.split(separator: "\n").count == 1)
    }
}
