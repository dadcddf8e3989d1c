import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// `reel play`'s options beyond the reference run: --frames, --threads, --thumbnail, --help, the
/// device keys that choose a rendition, and the keys of its JSON report.
@Suite("reel play options")
struct PlayOptionsTests {
    static func sample(_ name: String) throws -> SampleIndex.Sample {
        try #require(try SampleIndex.load().samples.first { $0.name == name }, "no sample \(name) in samples.json")
    }

    static func hashes(_ stdout: String) -> [String] {
        CacheCLI.hashes(stdout)
    }

    static func report(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func framesStopsAfterThatManyFrames() async throws {
        let sample = try Self.sample("s01")
        let path = PackagePaths.samples.appendingPathComponent(sample.entry).path
        let result = try await ReelProcess.run(["play", path, "--fast", "--frames", "10", "--framemd5", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try SampleIndex.referenceHashes(sample.renditions[0].reference)
        #expect(Self.hashes(result.stdout) == Array(expected.prefix(10)))
        let video = try #require(try Self.report(result.stderr)["video"] as? [String: Any])
        #expect(video["frames"] as? Int == 10)
    }

    @Test(arguments: [0, 2])
    func threadedDecodingGivesTheSameFrames(threads: Int) async throws {
        let sample = try Self.sample("s02")
        let path = PackagePaths.samples.appendingPathComponent(sample.entry).path
        let result = try await ReelProcess.run(["play", path, "--fast", "--threads", String(threads), "--framemd5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.hashes(result.stdout) == (try SampleIndex.referenceHashes(sample.renditions[0].reference)))
    }

    @Test func thumbnailWritesTheFirstFrameAsAPNG() async throws {
        let folder = try makeScratchFolder("reel-thumbnail")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("first.png")
        let path = PackagePaths.samples.appendingPathComponent("streams/s07/index.m3u8").path
        let result = try await ReelProcess.run(["play", path, "--fast", "--frames", "1", "--thumbnail", png.path])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG signature")
        // IHDR: width and height, big-endian, at bytes 16..<24.
        func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == 960 && be32(20) == 540, "PNG is \(be32(16))x\(be32(20)), the sample is 960x540")
    }

    /// A thumbnail's missing folder is made; a path that cannot be written is refused before the
    /// play, in one line.
    @Test func anUnwritableThumbnailPathIsAClearError() async throws {
        let folder = try makeScratchFolder("reel-thumbnail")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = PackagePaths.samples.appendingPathComponent("streams/s01/index.m3u8").path
        let made = folder.appendingPathComponent("new/dir/t.png").path
        let written = try await ReelProcess.run(["play", path, "--fast", "--frames", "1", "--thumbnail", made])
        #expect(written.status == 0 && FileManager.default.fileExists(atPath: made), "\(written.stderr)")
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let bad = file.appendingPathComponent("t.png").path
        let result = try await ReelProcess.run(["play", path, "--fast", "--frames", "1", "--thumbnail", bad])
        #expect(result.status == 2)
        #expect(result.stderr.contains(bad), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "played before refusing: \(result.stdout)")
    }

    /// The device keys choose the rendition; every non-default rendition matches its reference too.
    @Test(arguments: [
        ("s03", "360p", ["--set", "device.maxVideoWidth=360", "--set", "device.maxVideoHeight=640"]),
        ("s03", "540p", ["--set", "device.isLowEnd=true"]),
        ("s03", "540p", ["--set", "device.bandwidthEstimateKbps=800"]),
        ("s04", "0", ["--set", "device.maxVideoWidth=360", "--set", "device.maxVideoHeight=640"]),
        ("s09", "360p", ["--set", "device.bandwidthEstimateKbps=300"]),
    ])
    func deviceKeysChooseTheRendition(name: String, rendition id: String, settings: [String]) async throws {
        let sample = try Self.sample(name)
        let rendition = try #require(sample.renditions.first { $0.id == id })
        try await withSampleServer { server in
            let url = server.url(for: sample.entry).absoluteString
            let result = try await ReelProcess.run(["play", url, "--fast", "--framemd5", "--json"] + settings)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try Self.report(result.stderr)
            if let representation = rendition.representation {
                #expect(report["rendition"] as? String == representation)
            } else {
                #expect((report["variant"] as? String)?.hasSuffix(rendition.playlist) == true, "\(report["variant"] ?? "nil")")
            }
            #expect(Self.hashes(result.stdout) == (try SampleIndex.referenceHashes(rendition.reference)))
        }
    }

    /// One engine per process: after the first request, every request of a playback goes over
    /// the same keep-alive connection, and the report counts the segments a --frames run cut short.
    @Test func requestsReuseTheConnectionAndAreAllCounted() async throws {
        try await withSampleServer { server in
            let url = server.url(for: "streams/s01/index.m3u8").absoluteString
            let result = try await ReelProcess.run(["play", url, "--fast", "--no-cache", "--json"] + PatientNetwork.arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let network = try #require(try Self.report(result.stdout)["network"] as? [String: Any])
            let requests = try #require(network["perRequest"] as? [[String: Any]])
            #expect(requests.count == 8, "the playlist and seven segments")
            #expect(requests.dropFirst().allSatisfy { $0["reusedConnection"] as? Bool == true }, "\(requests)")
            #expect(server.bill().connections == 1)
            #expect(network["bytes"] as? Int == Int(server.bill().bodyBytes))

            let cut = try await ReelProcess.run(["play", url, "--fast", "--no-cache", "--frames", "1", "--json"] + PatientNetwork.arguments)
            let cutNetwork = try #require(try Self.report(cut.stdout)["network"] as? [String: Any])
            #expect(cutNetwork["requests"] as? Int == 2, "the playlist and the first segment, read in part")
        }
    }

    /// Across a discontinuity (s10: two encodes, the second restarting its clock) the timing
    /// figures follow the media, not the raw timestamps: no stall, the whole duration.
    @Test func aDiscontinuityIsNeitherAStallNorLostTime() async throws {
        let sample = try Self.sample("s10")
        let path = PackagePaths.samples.appendingPathComponent(sample.entry).path
        let result = try await ReelProcess.run(["play", path, "--fast", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let video = try #require(try Self.report(result.stdout)["video"] as? [String: Any])
        #expect(video["stalls"] as? Int == 0)
        #expect(video["resolutionChanges"] as? Int == 1)
        let seconds = try #require(video["mediaSeconds"] as? Double)
        #expect(abs(seconds - sample.durationSeconds) < 0.1, "\(seconds) s of media in a \(sample.durationSeconds) s sample")
    }

    @Test func helpNamesEveryOption() async throws {
        let result = try await ReelProcess.run(["play", "--help"])
        #expect(result.status == 0)
        for option in ["--frames", "--fast", "--threads", "--framemd5", "--thumbnail", "--probesize", "--analyzeduration-ms",
                       "--find-stream-info", "--no-audio", "--json", "--config", "--set"] {
            #expect(result.stdout.contains(option), "reel play --help does not mention \(option)")
        }
    }

    /// Every key the JSON report prints is documented in docs/commands.md's `reel play` table.
    @Test func theJSONKeysAreTheDocumentedOnes() async throws {
        let commands = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        try await withSampleServer { server in
            let result = try await ReelProcess.run(["play", server.url(for: "streams/s01/index.m3u8").absoluteString, "--fast", "--frames", "5", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try Self.report(result.stdout)
            let rows = commands.split(separator: "\n").filter { $0.hasPrefix("| `") }
            for key in report.keys {
                #expect(rows.contains { $0.hasPrefix("| `\(key)`") || $0.hasPrefix("| `\(key)[]`") || $0.hasPrefix("| `\(key).") },
                        "docs/commands.md does not document '\(key)'")
            }
            for (section, object) in report {
                guard let fields = object as? [String: Any] else { continue }
                // Either a row of its own (`network.bytes`) or named in the section's row (`video` | `{codec, ...}`).
                let sectionRow = rows.first { $0.hasPrefix("| `\(section)` |") } ?? ""
                for key in fields.keys {
                    let documented = rows.contains { $0.contains("`\(section).\(key)`") || $0.contains("`\(section).\(key)[]`") }
                        || sectionRow.contains(key)
                    #expect(documented, "docs/commands.md does not document '\(section).\(key)'")
                }
            }
        }
    }
}
