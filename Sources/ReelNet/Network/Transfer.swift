import CCurl
import CReelShims
import Foundation
import ReelCore
import ReelManifest

/// One GET as the transfer thread sees it: the request, its easy handle for the current attempt,
/// retry state, and the stream its bytes go to. Touched only on the transfer thread.
final class Transfer {
    let spec: DataSpec
    let stream: TransferStream
    let startedAt: ContinuousClock.Instant
    /// The engine running this transfer (the write callback reaches it through here).
    weak var engine: TransferCore?
    var easy: UnsafeMutableRawPointer?
    /// Attempts started so far.
    var attempts = 0
    /// When a scheduled retry is due.
    var retryAt: ContinuousClock.Instant?
    /// Bytes of the current attempt's body to drop before delivering (a server that ignored Range).
    var skipBytes: Int64 = 0
    /// Bytes the reader still wants, when the spec has a length.
    var remaining: Int64?
    /// The current attempt's response has started.
    var responseSeen = false
    /// The reader has all it asked for; the transfer ended early on purpose.
    var satisfied = false
    /// When the current attempt started (libcurl's times count from here).
    var attemptStartedAt: ContinuousClock.Instant
    /// Low-speed watchdog: bytes and time at the start of the current window.
    var windowStart: ContinuousClock.Instant
    var windowBytes: Int64 = 0
    /// The attempt's request has left (the watchdog's first window starts then, not before).
    var requestSent = false
    var paused = false
    /// Counted as under way by the engine's `ThroughputSampler` (a metered attempt, not paused).
    var metering = false
    var cancelled = false
    /// Attempts that ended in a stall (a low-speed timeout).
    var stalls = 0
    /// Why the engine cut the transfer itself (a body past its limit, an encoding it did not
    /// ask for): the attempt's end reports this instead of libcurl's write error, unretried.
    var refusal: ReelError?
    var rangeHeader: [CChar] = []
    /// The current attempt's extra headers (CMCD), owned here and freed with the attempt.
    var headerList: UnsafeMutablePointer<curl_slist>?

    /// Frees the extra headers. The corresponding C function is `curl_slist_free_all`.
    func freeHeaders() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }

    init(spec: DataSpec, stream: TransferStream, now: ContinuousClock.Instant) {
        self.spec = spec
        self.stream = stream
        self.startedAt = now
        self.windowStart = now
        self.attemptStartedAt = now
        self.remaining = spec.length
    }

    /// Whether its bytes measure the network for the bandwidth meter: media (segments, files),
    /// not playlists, keys or images, whose few bytes mostly measure latency.
    var isMetered: Bool { spec.kind == .segment || spec.kind == .media }

    /// The first byte of the resource this attempt asks for: resumes after what was delivered.
    var resumeOffset: Int64 { spec.offset + stream.deliveredBytes }

    /// The Range header value for this attempt, or nil for the whole resource.
    func rangeValue() -> String? {
        let delivered = stream.deliveredBytes
        let start = spec.offset + delivered
        if let length = spec.length {
            return "\(start)-\(spec.offset + length - 1)"
        }
        return start > 0 ? "\(start)-" : nil
    }

    /// Takes body bytes from curl: drops what a range-ignoring server resent, stops at the length
    /// asked for. Returns the count to report to curl (short means stop), or nil to pause, in which
    /// case nothing was consumed and curl offers the same bytes again on resume.
    func deliver(_ bytes: UnsafeRawBufferPointer) -> Int? {
        if remaining == 0 {
            satisfied = true
            return 0
        }
        let drop = Int(min(skipBytes, Int64(bytes.count)))
        var slice = UnsafeRawBufferPointer(rebasing: bytes[drop...])
        if slice.isEmpty {
            skipBytes -= Int64(drop)
            return bytes.count
        }
        if let remaining, Int64(slice.count) > remaining {
            slice = UnsafeRawBufferPointer(rebasing: slice[..<Int(remaining)])
        }
        guard stream.offer(slice) else { return nil }
        skipBytes -= Int64(drop)
        windowBytes += Int64(slice.count)
        if let remaining {
            self.remaining = remaining - Int64(slice.count)
            if self.remaining == 0 {
                satisfied = true
                if drop + slice.count < bytes.count { return 0 }
            }
        }
        return bytes.count
    }
}
