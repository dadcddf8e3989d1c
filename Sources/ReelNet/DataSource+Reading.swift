import Foundation
import ReelCore
import ReelManifest

extension DataSource {
    /// Reads until `count` bytes or the end of the data.
    public func read(upTo count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 64 << 10))
        while result.count < count {
            let want = min(chunk.count, count - result.count)
            let got = try chunk.withUnsafeMutableBytes { try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            if got == 0 { break }
            result.append(contentsOf: chunk[..<got])
        }
        return result
    }

    /// Reads to the end, refusing a resource of more than `limit` bytes with an error naming `url`;
    /// `alreadyRead` bytes of it were read before (a sniffed prefix) and count toward the limit.
    public func readToEnd(limit: Int, url: URL, alreadyRead: Int = 0) throws -> [UInt8] {
        let room = max(0, limit - alreadyRead)
        let bytes = try read(upTo: room)
        if bytes.count == room, try read(upTo: 1).count > 0 {
            throw ReelError(.invalidInput, "'\(url.absoluteString)' is larger than \(limit) bytes; refusing to read it whole")
        }
        return bytes
    }
}

extension DataSourceFactory {
    /// Fetches a whole resource (a playlist, a key) with a source of this factory, recording the
    /// request in `log`. Blocking: call it from a dedicated thread.
    public func fetch(_ spec: DataSpec, cancellation: Cancellation = Cancellation(), limit: Int = 32 << 20,
                      log: RequestLog? = nil) throws -> [UInt8] {
        try fetchMeasured(spec, cancellation: cancellation, limit: limit, log: log).bytes
    }

    /// `fetch`, with what the request cost (whether the cache served it whole, say).
    package func fetchMeasured(_ spec: DataSpec, cancellation: Cancellation = Cancellation(), limit: Int = 32 << 20,
                               log: RequestLog? = nil) throws -> (bytes: [UInt8], metrics: TransferMetrics) {
        let source = makeDataSource(cancellation: cancellation)
        defer {
            source.close()
            log?.record(source.metrics)
        }
        _ = try source.open(spec)
        let bytes = try source.readToEnd(limit: limit, url: spec.url)
        return (bytes, source.metrics)
    }

    /// Fetches a segment into the cache for a seat at the session's link desk (`SegmentTurns`'s
    /// fill): its body bytes and seconds on the link, none when the cache served it whole (a cache
    /// read's bytes over its instant would tell the policy of a link far faster than the one it
    /// has). A fill following a transfer on its way (the demuxer's, or a partial entry resumed)
    /// does measure the link: its bytes over its time, as a transfer's.
    package func fill(_ spec: DataSpec, cancellation: Cancellation, log: RequestLog? = nil) throws -> (bytes: Int, seconds: Double) {
        let began = ContinuousClock.now
        let (bytes, metrics) = try fetchMeasured(spec, cancellation: cancellation, limit: 256 << 20, log: log)
        return metrics.cacheHit ? (0, 0) : (bytes.count, (ContinuousClock.now - began).seconds)
    }
}
