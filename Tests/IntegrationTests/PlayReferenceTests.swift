import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// `reel play --framemd5` gives exactly the committed `ffmpeg -f framemd5` hashes for every
/// bundled sample from a local path, and for one sample of each packaging over HTTP from the CDN
/// simulator on 127.0.0.1 and with the stream-info probe (those paths differ by packaging). Each
/// decode runs on one decoder thread (the frames are the same with any thread count), and as many
/// at once as `ProcessSlots` allows: one at a time, this suite ended a minute after every other.
@Suite("reel play matches the reference frames")
struct PlayReferenceTests {
    @Test func theSampleIndexIsThere() throws {
        let index = try SampleIndex.load()
        #expect(index.samples.count >= 12)
        #expect(SampleIndex.onePerPackaging.count >= 7, "every packaging goes over HTTP and through the probe")
    }

    @Test(arguments: SampleIndex.all)
    func fromALocalPath(sample: SampleIndex.Sample) async throws {
        let path = PackagePaths.samples.appendingPathComponent(sample.entry).path
        try await check(sample, input: path)
    }

    @Test(arguments: SampleIndex.onePerPackaging)
    func overHTTP(sample: SampleIndex.Sample) async throws {
        try await withSampleServer { server in
            try await check(sample, input: server.url(for: sample.entry).absoluteString)
        }
    }

    @Test(arguments: SampleIndex.onePerPackaging)
    func withTheStreamInfoProbe(sample: SampleIndex.Sample) async throws {
        let path = PackagePaths.samples.appendingPathComponent(sample.entry).path
        try await check(sample, input: path, extra: ["--find-stream-info"])
    }

    /// Runs `reel play --fast --framemd5 --json` and compares with the reference of the rendition
    /// the player chose.
    func check(_ sample: SampleIndex.Sample, input: String, extra: [String] = []) async throws {
        let result = try await ReelProcess.run(["play", input, "--fast", "--threads", "1", "--framemd5", "--json"] + extra)
        #expect(result.status == 0, "reel play \(input) failed: \(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
        if sample.hasAudio {
            #expect(report?["audio"] is [String: Any], "\(sample.name) has audio but none was decoded")
        } else {
            #expect(report?["audio"] is NSNull, "\(sample.name) has no audio; audio must be null")
        }
        let phases = report?["phases"] as? [String: Double] ?? [:]
        let ttff = report?["ttffMs"] as? Double ?? 0
        #expect(ttff > 0 && phases.values.reduce(0, +) <= ttff + 0.01, "phases \(phases) exceed TTFF \(ttff)")
        let variant = report?["variant"] as? String
        let representation = report?["rendition"] as? String
        let rendition = try #require(
            sample.renditions.first { rendition in
                if let representation { return rendition.representation == representation }
                guard let variant else { return sample.renditions.count == 1 }
                return variant.hasSuffix(rendition.playlist)
            },
            "no rendition of \(sample.name) matches variant \(variant ?? "nil") / representation \(representation ?? "nil")")
        let expected = try SampleIndex.referenceHashes(rendition.reference)
        let got = CacheCLI.hashes(result.stdout)
        #expect(expected.count == rendition.frames)
        #expect(got.count == expected.count, "\(sample.name): \(got.count) frames, reference has \(expected.count)")
        if let mismatch = zip(got, expected).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("\(sample.name): frame \(mismatch.offset) differs from the reference")
        }
    }
}
