import Foundation
import ReelCore
import ReelManifest

/// Routes each open to a network or file source by the URL's scheme. Local files are read only
/// when `allowLocalFiles` is set (a local top-level input); anything else is refused by name.
public final class URLDataSource: DataSource {
    private let engine: TransferEngine
    private let cancellation: Cancellation
    private let allowLocalFiles: Bool
    private var current: (any DataSource)?

    public init(engine: TransferEngine, cancellation: Cancellation, allowLocalFiles: Bool) {
        self.engine = engine
        self.cancellation = cancellation
        self.allowLocalFiles = allowLocalFiles
    }

    public func open(_ spec: DataSpec) throws -> Int64? {
        close()
        let source: any DataSource
        switch spec.url.scheme?.lowercased() {
        case "http", "https":
            source = NetworkDataSource(engine: engine, cancellation: cancellation)
        case "file" where allowLocalFiles:
            source = FileDataSource(cancellation: cancellation)
        case "file":
            throw ReelError(.forbiddenURL, "refused '\(spec.url.absoluteString)': a remote input may not read local files")
        default:
            throw ReelError(.unsupportedScheme, "refused '\(spec.url.absoluteString)': only http, https and local files are read")
        }
        current = source
        return try source.open(spec)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let current else { throw ReelError(.internalFailure, "read before open") }
        return try current.read(into: buffer)
    }

    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        guard let current else { throw ReelError(.internalFailure, "read before open") }
        return try current.readReady(into: buffer)
    }

    public func close() {
        current?.close()
    }

    public var metrics: TransferMetrics { current?.metrics ?? TransferMetrics() }
}

/// Makes `URLDataSource`s sharing one engine and one local-file policy.
public struct URLDataSourceFactory: DataSourceFactory {
    public let engine: TransferEngine
    public let allowLocalFiles: Bool

    public init(engine: TransferEngine, allowLocalFiles: Bool) {
        self.engine = engine
        self.allowLocalFiles = allowLocalFiles
    }

    public func makeDataSource(cancellation: Cancellation) -> any DataSource {
        URLDataSource(engine: engine, cancellation: cancellation, allowLocalFiles: allowLocalFiles)
    }

    public var bandwidthMeter: BandwidthMeter? { engine.meter }
}
