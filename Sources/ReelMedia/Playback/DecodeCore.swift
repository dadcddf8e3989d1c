import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore
import ReelNet

/// The decode step `reel play` and the feed's players share: send a packet to a decoder, take
/// every frame it has ready, count, time and hash the video frames, and hand them to the
/// renderer. Runs on the thread that owns the decoder.
struct DecodeCore {
    let timeBase: AVRational
    let hashes: Bool
    /// Hand each frame to the renderer with its picture (`PlayerOptions.keepsPicture`).
    let pictures: Bool
    let thumbnailPath: String?
    let onFrameHash: (@Sendable (FrameHash) -> Void)?
    /// Stop after this many video frames.
    let maxFrames: Int?
    /// Video frames handed to the renderer.
    private(set) var frames = 0
    private(set) var audioFrames = 0
    private(set) var decodeMs: [Double] = []
    private(set) var firstSize: (width: Int, height: Int)?
    private var lastSize: (width: Int, height: Int)?
    private(set) var resolutionChanges = 0
    private(set) var decodeErrors = 0
    var notes = NoteList()
    private(set) var firstPts: Double?
    private(set) var lastPts: Double = 0
    /// Where the current timeline began (a discontinuity starts a new one) and the media time
    /// of the timelines before it.
    private var timelineStart: Double?
    private var earlierTimelines: Double = 0
    /// The last step between two frames' times, the length a timeline's last frame is counted for.
    private var lastStep: Double = 0
    /// The presentation time (stream time base) of the last frame handed over.
    private(set) var lastTimestamp: Int64?
    /// When the first video frame was handed to the renderer.
    private(set) var firstFrameAt: ContinuousClock.Instant?
    /// Frames at or before this timestamp are decoded but not handed over: a player replaying
    /// packets from the last key frame into a fresh decoder skips what was already shown.
    var skipThrough: Int64?
    /// While set, decoded video frames are kept in `held` instead of going to the renderer (a
    /// mounted player decodes its first frame ahead and shows it when told to play).
    var holding = false
    /// Frames decoded while `holding`, in order, not handed over yet.
    private(set) var held: [Frame] = []
    private var hasher = FrameHasher()
    /// The stream's facts each hash carries (its frame rate and the input's start).
    var hashStream = FrameHash.Stream(frameRate: .init(30, 1), startSeconds: 0)
    private let frame = Frame()
    private var decodeSpent: Duration = .zero

    init(timeBase: AVRational, maxFrames: Int? = nil, hashes: Bool = false, pictures: Bool = false, thumbnailPath: String? = nil,
         onFrameHash: (@Sendable (FrameHash) -> Void)? = nil) {
        self.timeBase = timeBase
        self.maxFrames = maxFrames
        self.hashes = hashes
        self.pictures = pictures
        self.thumbnailPath = thumbnailPath
        self.onFrameHash = onFrameHash
    }

    /// Seconds of media handed over: from the first to the last frame, summed over timelines
    /// (a pts going backwards or jumping more than a second after a discontinuity starts a new one).
    var mediaSeconds: Double { timelineStart.map { earlierTimelines + max(0, lastPts - $0) } ?? 0 }

    var limitReached: Bool { maxFrames.map { frames >= $0 } ?? false }

    /// Sends a video packet (nil drains the decoder) and hands every ready frame to `renderer`.
    /// Returns false once `maxFrames` is reached.
    mutating func decodeVideo(_ packet: Packet?, with decoder: Decoder, renderer: HeadlessRenderer) throws -> Bool {
        var clock = ContinuousClock.now
        while true {
            let sent = decoder.send(packet)
            decodeSpent += ContinuousClock.now - clock
            if case .rejected = sent { decodeErrors += 1 }
            guard try drainVideo(decoder, renderer: renderer) else { return false }
            clock = .now
            if sent != .full { return true }
        }
    }

    /// Takes every frame the video decoder has ready; returns false once `maxFrames` is reached.
    private mutating func drainVideo(_ decoder: Decoder, renderer: HeadlessRenderer) throws -> Bool {
        while true {
            let before = ContinuousClock.now
            let result = decoder.receive(into: frame)
            decodeSpent += ContinuousClock.now - before
            switch result {
            case .needsInput, .endOfStream: return true
            case .failed(let status):
                decodeErrors += 1
                notes.add("decoding a frame failed: \(AVErrorCode(status))")
                continue
            case .frame:
                break
            }
            defer { frame.unref() }
            if let skip = skipThrough {
                if let ticks = frame.timestamp, ticks <= skip {
                    decodeSpent = .zero
                    continue
                }
                skipThrough = nil
            }
            if holding {
                held.append(Frame(referencing: frame))
                continue
            }
            try frameDecoded(frame, renderer: renderer)
            decodeSpent = .zero
            if limitReached { return false }
        }
    }

    /// Sends an audio packet (nil drains) and counts the frames out of it.
    mutating func decodeAudio(_ packet: Packet?, with decoder: Decoder) {
        while true {
            let sent = decoder.send(packet)
            drainAudio(decoder)
            if sent != .full { return }
        }
    }

    private mutating func drainAudio(_ decoder: Decoder) {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                audioFrames += 1
                frame.unref()
            case .failed: decodeErrors += 1
            case .needsInput, .endOfStream: return
            }
        }
    }

    /// Hands the frames decoded while holding to the renderer, in order; the first of them is
    /// the first frame when none was handed before.
    mutating func releaseHeld(to renderer: HeadlessRenderer) throws {
        let frames = held
        held = []
        for frame in frames {
            try frameDecoded(frame, renderer: renderer)
            decodeSpent = .zero
        }
    }

    private mutating func frameDecoded(_ frame: Frame, renderer: HeadlessRenderer) throws {
        if frames == 0 { firstFrameAt = .now }
        let size = (width: frame.width, height: frame.height)
        if firstSize == nil { firstSize = size }
        if let last = lastSize, last != size { resolutionChanges += 1 }
        lastSize = size
        let ticks = frame.timestamp
        let seconds = ticks.map { Double($0) * Double(timeBase.num) / Double(timeBase.den) } ?? (lastPts + 1.0 / 30)
        if firstPts == nil {
            firstPts = seconds
            timelineStart = seconds
        } else if let start = timelineStart, seconds < lastPts || seconds - lastPts > 1 {
            earlierTimelines += max(0, lastPts - start) + lastStep
            timelineStart = seconds
        } else {
            lastStep = seconds - lastPts
        }
        lastPts = seconds
        lastTimestamp = ticks ?? lastTimestamp
        if frames == 0, let thumbnailPath { try ThumbnailWriter.write(frame, to: thumbnailPath) }
        if hashes, let (md5, bytes) = hasher.md5(of: frame) {
            let aspect = frame.pointer.pointee.sample_aspect_ratio
            onFrameHash?(FrameHash(index: frames, pts: ticks ?? -1, seconds: ticks == nil ? nil : seconds, md5: md5, bytes: bytes,
                                   width: size.width, height: size.height,
                                   sampleAspect: .init(Int(aspect.num), Int(aspect.den)), stream: hashStream))
        }
        decodeMs.append(decodeSpent.milliseconds)
        frames += 1
        renderer.submit(pts: seconds, width: size.width, height: size.height,
                        picture: pictures ? Picture(referencing: frame, time: seconds) : nil)
    }
}
