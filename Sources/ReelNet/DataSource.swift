import Foundation
import ReelCore
import ReelManifest

/// A blocking byte source: open a `DataSpec`, read until it returns 0, close. Implementations run
/// on a dedicated thread (a demuxer's or a prefetch worker's), never on the cooperative pool.
/// `close()` is called even after a failed `open`. An instance is used by one thread at a time.
public protocol DataSource: AnyObject {
    /// Opens `spec`; returns how many bytes `read` will deliver, or nil when unknown.
    /// Throws `ReelError` naming the URL and the cause.
    func open(_ spec: DataSpec) throws -> Int64?
    /// Reads up to `buffer.count` bytes, blocking until at least one is available;
    /// returns 0 at the end of the data. Throws `ReelError`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Reads what has arrived, without waiting: up to `buffer.count` bytes, 0 when none is there
    /// yet, nil when this source cannot tell without blocking (then `read`). Only `read` says that
    /// the data ended. A demuxer reading a segment that is still arriving hands on what came
    /// instead of waiting for a whole block (`SourceIO`). Throws `ReelError`.
    func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int?
    /// Releases the transfer or file. Safe to call more than once.
    func close()
    /// What the last `open` learned and what reading cost so far.
    var metrics: TransferMetrics { get }
}

/// Makes data sources; playback and prefetch each hold one and make a source per open.
public protocol DataSourceFactory: Sendable {
    func makeDataSource(cancellation: Cancellation) -> any DataSource
    /// The disk cache behind the sources, when there is one (input resolution asks it what is
    /// cached to play offline); nil by default.
    var cacheContext: CacheContext? { get }
    /// The meter the network under the sources feeds (variant choices read its estimate); nil by
    /// default.
    var bandwidthMeter: BandwidthMeter? { get }
    /// Who gives a play's segments their turns on the link (a session under one download
    /// policy); nil by default: the play's own rules decide.
    var segmentTurns: (any SegmentTurns)? { get }
}

extension DataSource {
    /// This source cannot tell what has arrived without blocking.
    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? { nil }
}

extension DataSourceFactory {
    public var cacheContext: CacheContext? { nil }
    public var bandwidthMeter: BandwidthMeter? { nil }
    public var segmentTurns: (any SegmentTurns)? { nil }
}

/// What one request cost and how long its steps took (milliseconds from the request's start).
public struct TransferMetrics: Sendable, Hashable, Codable {
    public var url: String = ""
    public var kind: ResourceKind = .media
    /// Body bytes delivered to the reader.
    public var bytes: Int64 = 0
    /// Body bytes that came from the cache rather than the network.
    public var cacheHitBytes: Int64 = 0
    public var cacheHit: Bool = false
    public var httpStatus: Int = 0
    public var dnsMs: Double = 0
    public var connectMs: Double = 0
    public var tlsMs: Double = 0
    public var firstByteMs: Double = 0
    public var totalMs: Double = 0
    /// Attempts made (1 when the first one succeeded).
    public var attempts: Int = 0
    /// True when the connection came from the pool instead of a new connect.
    public var reusedConnection: Bool = false

    public init() {}
}

extension TransferMetrics {
    public init(url: String, kind: ResourceKind) {
        self.init()
        self.url = url
        self.kind = kind
    }
}
