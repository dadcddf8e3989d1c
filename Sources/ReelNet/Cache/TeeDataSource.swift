import ReelCore
import ReelManifest

/// Where a `TeeDataSource` copies the bytes it reads (the cache's file writer).
public protocol DataSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Reads an upstream source and copies every byte it delivers into a sink on the way, as
/// ExoPlayer's `TeeDataSource` does: the reader gets each chunk as it arrives, the cache gets the
/// same chunk. A failing sink (a full disk) is dropped after `onSinkFailure`; reading goes on.
public final class TeeDataSource: DataSource {
    private let upstream: any DataSource
    private var sink: (any DataSink)?
    private let onSinkFailure: (ReelError) -> Void
    /// True once the sink failed and was dropped (the copy is incomplete).
    public private(set) var sinkFailed = false

    public init(upstream: any DataSource, sink: (any DataSink)?, onSinkFailure: @escaping (ReelError) -> Void = { _ in }) {
        self.upstream = upstream
        self.sink = sink
        self.onSinkFailure = onSinkFailure
        sinkFailed = sink == nil
    }

    public func open(_ spec: DataSpec) throws -> Int64? {
        try upstream.open(spec)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try copyToSink(upstream.read(into: buffer), from: buffer)
    }

    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try upstream.readReady(into: buffer).map { copyToSink($0, from: buffer) }
    }

    /// Writes the `count` bytes just read into `buffer` to the sink; returns `count`.
    private func copyToSink(_ count: Int, from buffer: UnsafeMutableRawBufferPointer) -> Int {
        if count > 0, let sink {
            do {
                try sink.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } catch {
                self.sink = nil
                sinkFailed = true
                onSinkFailure(error as? ReelError ?? ReelError(.cacheIO, "writing to the cache failed: \(error)"))
            }
        }
        return count
    }

    public func close() {
        upstream.close()
    }

    public var metrics: TransferMetrics { upstream.metrics }
}
