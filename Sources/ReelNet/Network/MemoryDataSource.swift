import Foundation
import ReelCore
import ReelManifest

/// Serves bytes already in memory (a playlist Reel has parsed and rewritten) as a data source.
public final class MemoryDataSource: DataSource {
    private let bytes: [UInt8]
    private var position = 0
    private var end = 0
    private var currentMetrics = TransferMetrics()

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func open(_ spec: DataSpec) throws -> Int64? {
        guard spec.offset <= Int64(bytes.count) else {
            throw ReelError(.invalidInput, "offset \(spec.offset) is past the end of '\(spec.url.absoluteString)'")
        }
        position = Int(spec.offset)
        end = spec.length.map { min(bytes.count, position + Int($0)) } ?? bytes.count
        currentMetrics = TransferMetrics(url: spec.url.absoluteString, kind: spec.kind)
        return Int64(end - position)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, end - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
        }
        position += count
        currentMetrics.bytes += Int64(count)
        return count
    }

    /// Never waits: the bytes are all here.
    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? { try read(into: buffer) }

    public func close() {}

    public var metrics: TransferMetrics { currentMetrics }
}

/// Replays bytes already read from a source (to sniff its type), then continues reading it.
public final class PrefixedDataSource: DataSource {
    private let prefix: [UInt8]
    private var prefixPosition = 0
    private let upstream: any DataSource

    public init(prefix: [UInt8], upstream: any DataSource) {
        self.prefix = prefix
        self.upstream = upstream
    }

    /// Already open: the upstream was opened by whoever read the prefix.
    public func open(_ spec: DataSpec) throws -> Int64? { nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try readPrefix(into: buffer) ?? upstream.read(into: buffer)
    }

    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try readPrefix(into: buffer) ?? upstream.readReady(into: buffer)
    }

    /// The next bytes of the prefix; nil once it is all read.
    private func readPrefix(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard prefixPosition < prefix.count else { return nil }
        let count = min(buffer.count, prefix.count - prefixPosition)
        prefix.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[prefixPosition..<(prefixPosition + count)]))
        }
        prefixPosition += count
        return count
    }

    public func close() { upstream.close() }

    public var metrics: TransferMetrics { upstream.metrics }
}
