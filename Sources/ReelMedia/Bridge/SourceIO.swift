import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// One `DataSource` presented to FFmpeg as an `AVIOContext`: FFmpeg's read and seek callbacks
/// land here on the demuxer's thread. Owned by the AVIOContext's `opaque` (retained in `make`,
/// released in `free`).
final class SourceIO {
    private var source: any DataSource
    private let reopen: ((DataSpec) throws -> any DataSource)?
    private var spec: DataSpec
    private var position: Int64 = 0
    private(set) var length: Int64?
    private let onClose: (SourceIO) -> Void
    private let onError: (ReelError) -> Void
    /// Hears the size of every read that returned bytes.
    private let onProgress: (Int) -> Void
    private var closed = false
    /// Metrics of every open this IO made (a seek reopens).
    private(set) var finishedMetrics: [TransferMetrics] = []

    /// `reopen` makes a fresh source for a seek; nil when the input cannot seek.
    init(source: any DataSource, spec: DataSpec, length: Int64?,
         reopen: ((DataSpec) throws -> any DataSource)?,
         onError: @escaping (ReelError) -> Void, onProgress: @escaping (Int) -> Void,
         onClose: @escaping (SourceIO) -> Void) {
        self.source = source
        self.spec = spec
        self.length = length
        self.reopen = reopen
        self.onError = onError
        self.onProgress = onProgress
        self.onClose = onClose
    }

    var metrics: [TransferMetrics] { finishedMetrics + (closed ? [] : [source.metrics]) }
    var url: String { spec.url.absoluteString }

    /// Wraps `self` in a new AVIOContext with a buffer of `bufferSize` bytes.
    /// The corresponding C function is `avio_alloc_context`.
    func makeContext(bufferSize: Int = 32 << 10) -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = av_malloc(bufferSize) else { return nil }
        let opaque = Unmanaged.passRetained(self).toOpaque()
        let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, opaque,
            sourceIORead, nil, sourceIOSeek)
        guard let context else {
            av_free(buffer)
            Unmanaged<SourceIO>.fromOpaque(opaque).release()
            return nil
        }
        context.pointee.seekable = reopen == nil ? 0 : AVIO_SEEKABLE_NORMAL
        return context
    }

    /// Frees an AVIOContext made by `makeContext`, closing its source.
    static func free(_ context: UnsafeMutablePointer<AVIOContext>?) {
        guard let context else { return }
        if let opaque = context.pointee.opaque {
            let io = Unmanaged<SourceIO>.fromOpaque(opaque).takeRetainedValue()
            io.close()
        }
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }

    func close() {
        guard !closed else { return }
        source.close()
        finishedMetrics.append(source.metrics)
        closed = true
        onClose(self)
    }

    fileprivate func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        do {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
            if count == 0 { return reel_shim_averror_eof }
            position += Int64(count)
            onProgress(count)
            return Int32(count)
        } catch let error as ReelError {
            onError(error)
            return error.code == .cancelled ? reel_shim_averror_exit : AVErrorCode.io.rawValue
        } catch {
            onError(ReelError(.networkFailed, "reading '\(url)' failed: \(error)"))
            return AVErrorCode.io.rawValue
        }
    }

    fileprivate func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return length ?? Int64(AVErrorCode.invalidArgument.rawValue) }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let length else { return Int64(AVErrorCode.invalidArgument.rawValue) }
            target = length + offset
        default: return Int64(AVErrorCode.invalidArgument.rawValue)
        }
        if target == position { return position }
        guard let reopen, target >= 0 else { return Int64(AVErrorCode.invalidArgument.rawValue) }
        do {
            source.close()
            finishedMetrics.append(source.metrics)
            var next = spec
            next.offset = spec.offset + target
            if let total = length { next.length = total - target }
            source = try reopen(next)
            position = target
            return target
        } catch let error as ReelError {
            onError(error)
            return Int64(AVErrorCode.io.rawValue)
        } catch {
            return Int64(AVErrorCode.io.rawValue)
        }
    }
}

/// FFmpeg's read callback for a `SourceIO`.
private let sourceIORead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let opaque, let buffer else { return AVErrorCode.invalidArgument.rawValue }
    return Unmanaged<SourceIO>.fromOpaque(opaque).takeUnretainedValue().read(buffer, size)
}

/// FFmpeg's seek callback for a `SourceIO` (also answers `AVSEEK_SIZE`).
private let sourceIOSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return Int64(AVErrorCode.invalidArgument.rawValue) }
    return Unmanaged<SourceIO>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
}
