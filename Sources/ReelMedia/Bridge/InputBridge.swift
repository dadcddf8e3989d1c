import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import ReelCore
import ReelNet
import Synchronization

/// Routes every open a demuxer makes (playlists, init sections, segments, keys, `crypto+` URLs)
/// through Reel's data sources via `io_open`/`io_close2`, so FFmpeg's own protocols never run.
/// Lives as long as its format context, which points at it through `opaque` (unretained).
final class InputBridge {
    let factory: any DataSourceFactory
    let cancellation: Cancellation
    let policy: URLPolicy
    let log: RequestLog
    /// What each known URL is (from Reel's own manifest model); unknown URLs count as segments.
    var kinds: [String: ResourceKind] = [:]
    /// Playlists Reel wrote itself, answered from memory.
    var virtualResources: [String: [UInt8]] = [:]
    private(set) var errors: [ReelError] = []
    private(set) var opens = 0

    init(factory: any DataSourceFactory, cancellation: Cancellation, policy: URLPolicy, log: RequestLog) {
        self.factory = factory
        self.cancellation = cancellation
        self.policy = policy
        self.log = log
    }

    func recordError(_ error: ReelError) {
        errors.append(error)
    }

    /// Opens `text` for a demuxer. `options` may carry `offset`/`end_offset` (BYTERANGE over
    /// http) and `key`/`iv` (AES-128, with a `crypto+` URL).
    func open(_ text: String, options: OpaquePointer?) throws -> SourceIO {
        opens += 1
        var address = text
        var decryption: (key: [UInt8], iv: [UInt8])?
        for prefix in ["crypto+", "crypto:"] where address.hasPrefix(prefix) {
            address.removeFirst(prefix.count)
            guard let key = Self.hexOption(options, "key"), let iv = Self.hexOption(options, "iv") else {
                throw ReelError(.invalidInput, "encrypted segment '\(address)' was opened without a key and IV")
            }
            decryption = (key, iv)
        }
        let url = try policy.check(address)
        if let bytes = virtualResources[address] {
            let memory = MemoryDataSource(bytes)
            let spec = DataSpec(url: url, kind: .playlist)
            let length = try memory.open(spec)
            return SourceIO(source: memory, spec: spec, length: length, reopen: nil,
                            onError: { [weak self] error in self?.recordError(error) }, onClose: { _ in })
        }
        var spec = DataSpec(url: url, kind: kinds[url.absoluteString] ?? kinds[address] ?? .segment)
        if !url.isFileURL, let offset = Self.intOption(options, "offset") {
            // Over HTTP the HLS demuxer asks for a BYTERANGE with options; locally it seeks itself.
            spec = DataSpec(url: url, offset: offset, length: Self.intOption(options, "end_offset").map { $0 - offset },
                            kind: spec.kind)
        }
        let source = factory.makeDataSource(cancellation: cancellation)
        let length: Int64?
        do {
            length = try source.open(spec)
        } catch {
            source.close()
            log.record(source.metrics)
            throw error
        }
        var reader: any DataSource = source
        if let decryption {
            reader = try AESDecryptingDataSource(upstream: source, key: decryption.key, iv: decryption.iv)
        }
        let factory = self.factory
        let cancellation = self.cancellation
        let log = self.log
        let reopen: ((DataSpec) throws -> any DataSource)? = decryption == nil
            ? { next in
                let fresh = factory.makeDataSource(cancellation: cancellation)
                _ = try fresh.open(next)
                return fresh
            }
            : nil
        return SourceIO(
            source: reader, spec: spec, length: decryption == nil ? length : nil, reopen: reopen,
            onError: { [weak self] error in self?.recordError(error) },
            onClose: { io in for metrics in io.finishedMetrics { log.record(metrics) } })
    }

    private static func option(_ options: OpaquePointer?, _ name: String) -> String? {
        guard let options, let entry = av_dict_get(options, name, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    private static func intOption(_ options: OpaquePointer?, _ name: String) -> Int64? {
        option(options, name).flatMap { Int64($0) }
    }

    private static func hexOption(_ options: OpaquePointer?, _ name: String) -> [UInt8]? {
        guard let text = option(options, name), text.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

/// FFmpeg's `io_open` for contexts bridged by an `InputBridge` (found through `opaque`).
let bridgeIOOpen: @convention(c) (
    UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
    UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 = { context, pb, url, flags, options in
    guard let context, let pb, let url, let opaque = context.pointee.opaque else {
        return AVErrorCode.invalidArgument.rawValue
    }
    let bridge = Unmanaged<InputBridge>.fromOpaque(opaque).takeUnretainedValue()
    let text = String(cString: url)
    guard flags & AVIO_FLAG_WRITE == 0 else {
        bridge.recordError(ReelError(.forbiddenURL, "refused to open '\(text)' for writing"))
        return AVErrorCode.invalidArgument.rawValue
    }
    do {
        let io = try bridge.open(text, options: options?.pointee)
        guard let avio = io.makeContext() else {
            io.close()
            return AVErrorCode.outOfMemory.rawValue
        }
        pb.pointee = avio
        return 0
    } catch let error as ReelError {
        bridge.recordError(error)
        switch error.code {
        case .cancelled: return AVErrorCode.exit.rawValue
        case .notFound: return AVErrorCode.notFound.rawValue
        default: return AVErrorCode.io.rawValue
        }
    } catch {
        bridge.recordError(ReelError(.openFailed, "opening '\(text)' failed: \(error)"))
        return AVErrorCode.io.rawValue
    }
}

/// FFmpeg's `io_close2`: frees the context and its buffer and closes the source; never `avio_close`.
let bridgeIOClose: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = {
    _, pb in
    SourceIO.free(pb)
    return 0
}

/// The interrupt callback: FFmpeg polls it during blocking work; non-zero stops the operation.
let bridgeInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<Cancellation>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
}
