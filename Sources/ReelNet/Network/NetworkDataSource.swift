import Foundation
import ReelCore
import ReelManifest

/// Reads an http(s) resource through the shared `TransferEngine`: `open` returns once the
/// response has started; `read` returns bytes as they arrive. The corresponding C machinery is
/// libcurl's multi interface on the engine's thread.
public final class NetworkDataSource: DataSource {
    private let engine: TransferEngine
    private let cancellation: Cancellation
    private var stream: TransferStream?
    private var cancelHandler: Int?
    private var lastMetrics = TransferMetrics()

    public init(engine: TransferEngine, cancellation: Cancellation) {
        self.engine = engine
        self.cancellation = cancellation
    }

    deinit { close() }

    public func open(_ spec: DataSpec) throws -> Int64? {
        close()
        guard let scheme = spec.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ReelError(.unsupportedScheme, "refused '\(spec.url.absoluteString)': the network source reads only http and https")
        }
        if cancellation.isCancelled {
            throw ReelError(.cancelled, "cancelled before opening '\(spec.url.absoluteString)'")
        }
        let stream = engine.start(spec)
        self.stream = stream
        let engine = self.engine
        cancelHandler = cancellation.onCancel { [weak stream] in
            if let stream { engine.cancel(stream) }
        }
        return try stream.waitForResponse()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let stream else { throw ReelError(.internalFailure, "read before open") }
        return try stream.read(into: buffer)
    }

    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        guard let stream else { throw ReelError(.internalFailure, "read before open") }
        return try stream.read(into: buffer, wait: false)
    }

    public func close() {
        if let cancelHandler { cancellation.removeHandler(cancelHandler) }
        cancelHandler = nil
        guard let stream else { return }
        if !stream.isDone { engine.cancel(stream) }
        lastMetrics = stream.metrics
        self.stream = nil
    }

    public var metrics: TransferMetrics { stream?.metrics ?? lastMetrics }
}
