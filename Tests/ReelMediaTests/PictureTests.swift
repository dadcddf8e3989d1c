import Foundation
import ReelCore
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// What a screen gets of decoded pictures: still images decoded with their size and layout, the
/// picture a player presented last (exactly the frame the reference names), and movies written
/// frame for frame.
@Suite("Pictures")
struct PictureTests {
    static func thumbnail(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: PackagePaths.samples.appendingPathComponent("images/thumbs/\(name).jpg")))
    }

    @Test func aJPEGThumbnailDecodesAtItsSizeInFullRangeYUV() throws {
        let picture = try Picture.image(try Self.thumbnail("s01"), name: "s01.jpg")
        #expect(picture.width == 270 && picture.height == 480)
        #expect(picture.format == .yuv420p(fullRange: true))
        #expect(picture.time == nil)
        let sizes = picture.withPlanes { $0.map { [$0.width, $0.rows] } }
        #expect(sizes == [[270, 480], [135, 240], [135, 240]])
        #expect(try picture.rgba().count == 270 * 480 * 4)
        #expect(try picture.rgba(width: 27, height: 48).count == 27 * 48 * 4)
    }

    @Test func aPNGDecodesToThePixelsEncoded() throws {
        var pixels: [UInt8] = []
        for index in 0..<(5 * 3) {
            let value = UInt8(index * 10)
            pixels += [value, 255 - value, 7, 255]
        }
        let picture = try Picture.image(try PNGEncoder.encode(rgba: pixels, width: 5, height: 3), name: "drawn.png")
        #expect(picture.width == 5 && picture.height == 3)
        #expect(picture.format == .other("rgba"))
        #expect(try picture.rgba() == pixels)
    }

    @Test(arguments: [[], [1, 2, 3], [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3, 4]] as [[UInt8]])
    func bytesThatAreNoImageAreRefusedByName(bytes: [UInt8]) {
        do {
            _ = try Picture.image(bytes, name: "broken.jpg")
            Issue.record("\(bytes.count) bytes decoded as a picture")
        } catch let error as ReelError {
            #expect(error.message.contains("broken.jpg"), "\(error)")
            #expect(error.code.area == .decoding, "\(error)")
        } catch {
            Issue.record("not a ReelError: \(error)")
        }
    }

    @Test func aPlayerKeepingPicturesHoldsTheLastFrameItPresented() async throws {
        let pool = DecoderPool(capacity: 1)
        let reference = try MediaTestSupport.reference("s11")
        try await withSampleServer { server in
            var options = MediaTestSupport.options(mode: .fast, hashes: false)
            options.keepsPicture = true
            let player = Player(card: "s0/0", input: try MediaTestSupport.url(server, "s11"), factory: MediaTestSupport.factory(),
                                pool: pool, options: options)
            #expect(player.picture == nil)
            var events = EventReader(player)
            player.play()
            await events.next { $0.endsPlayback }
            let picture = try #require(player.picture, "a player keeping pictures has none after playing")
            #expect(picture.width == 540 && picture.height == 960)
            #expect(picture.format == .yuv420p(fullRange: false))
            var hasher = FrameHasher()
            #expect(hasher.md5(of: picture.frame)?.md5 == reference.last, "the picture kept is not the last frame the reference names")
            let report = await player.stop()
            #expect(report.frames == reference.count)
        }
    }

    @Test func aPlayerNotAskedKeepsNoPicture() async throws {
        let pool = DecoderPool(capacity: 1)
        try await withSampleServer { server in
            let player = Player(card: "s0/0", input: try MediaTestSupport.url(server, "s11"), factory: MediaTestSupport.factory(),
                                pool: pool, options: MediaTestSupport.options(mode: .fast, hashes: false))
            var events = EventReader(player)
            player.play()
            await events.next { $0.endsPlayback }
            #expect(player.picture == nil)
            _ = await player.stop()
        }
    }

    @Test func aMovieHoldsEveryFrameAppendedAtEvenSize() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-movie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.mp4").path
        let written = try await BlockingPool.shared.run { () throws -> Int in
            let writer = try MovieWriter(path: path, width: 65, height: 49, framesPerSecond: 30)
            for index in 0..<12 {
                let pixels = [UInt8](repeating: UInt8(index * 20), count: 65 * 49 * 4)
                try pixels.withUnsafeBytes { try writer.append(rgba: $0, stride: 65 * 4) }
            }
            try writer.finish()
            return writer.frames
        }
        #expect(written == 12)
        let probe = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffprobe"), [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,width,height,r_frame_rate",
            "-of", "csv=p=0", path,
        ])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "64,48,30/1,12", "\(probe.stdout)")
    }

    @Test func aMovieThatCannotBeWrittenSaysWhy() throws {
        #expect(throws: ReelError.self) { _ = try MovieWriter(path: "/nonexistent-folder/out.mp4", width: 64, height: 48) }
        #expect(throws: ReelError.self) { _ = try MovieWriter(path: "/tmp/out.unknown-extension", width: 64, height: 48) }
        #expect(throws: ReelError.self) { _ = try MovieWriter(path: "/tmp/out.mp4", width: 0, height: 48) }
    }
}
