import CAVFormat

/// ffmpeg's own framemd5 text for a video stream, so `diff` against
/// `ffmpeg -i INPUT -map 0:v:0 -autoscale 0 -f framemd5 -` holds: the header (format, version,
/// hash, the libavformat that wrote it, the time base 1/frame rate, the stream's type, codec,
/// dimensions and sample aspect ratio, the column names), then one line per frame of six
/// columns (stream, dts, pts, duration, size, md5). Times are in 1/frame-rate units, placed as
/// ffmpeg places frames for a variable-frame-rate output: a frame keeps its slot unless it is
/// more than 0.6 of a frame ahead (then it takes its own time) or behind (then it is dropped).
public struct FrameMD5Format: Sendable {
    /// The next free slot, in frames (ffmpeg's `sync_opts`).
    private var next: Int64 = 0
    private var headerWritten = false
    /// Where times count from: the input's start, else the first frame's time; moved at a
    /// discontinuity.
    private var origin: Double?
    /// The last frame's time in seconds.
    private var last: Double?

    public init() {}

    /// The lines for one frame: the header first, then its line; none for a frame ffmpeg drops.
    public mutating func lines(for hash: FrameHash) -> [String] {
        var lines: [String] = []
        if !headerWritten {
            headerWritten = true
            lines += Self.header(hash)
        }
        let rate = hash.stream.frameRate
        var origin = self.origin ?? hash.stream.startSeconds ?? hash.seconds ?? 0
        // A discontinuity (time going back, or jumping 10 s on): ffmpeg shifts what follows so
        // it goes on from the next slot.
        if let seconds = hash.seconds, let last, seconds < last - 0.1 || seconds > last + 10 {
            origin = seconds - Double(next) * Double(rate.den) / Double(rate.num)
        }
        self.origin = origin
        if let seconds = hash.seconds { last = seconds }
        // A frame without a time takes the next slot.
        let position = hash.seconds.map { ($0 - origin) * Double(rate.num) / Double(rate.den) } ?? Double(next)
        let delta = position - Double(next) + 1
        if delta <= -0.6 { return lines }
        if delta > 0.6 { next = Int64(position.rounded(.toNearestOrEven)) }
        lines.append(Self.line(slot: next, bytes: hash.bytes, md5: hash.md5))
        next += 1
        return lines
    }

    /// The header ffmpeg's framehash muxer writes for one video stream.
    static func header(_ hash: FrameHash) -> [String] {
        let version = avformat_version()
        let software = "Lavf\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
        let rate = hash.stream.frameRate
        let sar = hash.sampleAspect.num == 0 ? FrameHash.Fraction(0, 1) : hash.sampleAspect
        return [
            "#format: frame checksums", "#version: 2", "#hash: MD5", "#software: \(software)",
            "#tb 0: \(rate.den)/\(rate.num)", "#media_type 0: video", "#codec_id 0: rawvideo",
            "#dimensions 0: \(hash.width)x\(hash.height)", "#sar 0: \(sar)",
            "#stream#, dts,        pts, duration,     size, hash",
        ]
    }

    /// `%d, %10d, %10d, %8d, %8d, %s`, as ffmpeg prints a packet.
    static func line(slot: Int64, bytes: Int, md5: String) -> String {
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return "0, \(padded(slot, 10)), \(padded(slot, 10)), \(padded(1, 8)), \(padded(Int64(bytes), 8)), \(md5)"
    }
}
