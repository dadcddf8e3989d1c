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
///
/// A media segment's IO is progressive: FFmpeg's HLS and DASH demuxers read a segment with
/// `avio_read` of 32 KiB, which waits until the block is whole, so a segment still arriving would
/// reach the player a block at a time (at 360p close to a second of video). Its context reads
/// directly into the caller's buffer (`direct`), where `avio_read` asks again at once for the rest
/// after a short read; that second ask gets only what has arrived (`readReady`), and when nothing
/// has, a soft stop that ends the `avio_read` with the bytes it has. The first ask of every
/// `avio_read` waits as always, so a demuxer never sees an empty read before the end.
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
    /// Hands a segment on as it arrives (above); only for the demuxers' `avio_read` of a segment.
    private let progressive: Bool
    /// Where the rest of the last short read goes, when FFmpeg asks again for it within the same
    /// `avio_read`: the caller's buffer past it and the bytes still wanted.
    private var shortRead: (next: UnsafeMutablePointer<UInt8>, wanted: Int32)?
    /// The context, while it lives: a soft stop's flags are cleared on the next read.
    private var context: UnsafeMutablePointer<AVIOContext>?

    /// `reopen` makes a fresh source for a seek; nil when the input cannot seek.
    init(source: any DataSource, spec: DataSpec, length: Int64?,
         reopen: ((DataSpec) throws -> any DataSource)?, progressive: Bool = false,
         onError: @escaping (ReelError) -> Void, onProgress: @escaping (Int) -> Void,
         onClose: @escaping (SourceIO) -> Void) {
        self.progressive = progressive
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
        if progressive { context.pointee.direct = 1 }
        self.context = context
        return context
    }

    /// Frees an AVIOContext made by `makeContext`, closing its source.
    static func free(_ context: UnsafeMutablePointer<AVIOContext>?) {
        guard let context else { return }
        if let opaque = context.pointee.opaque {
            let io = Unmanaged<SourceIO>.fromOpaque(opaque).takeRetainedValue()
            io.context = nil
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
        let rest = shortRead.map { $0.next == buffer && $0.wanted == size } ?? false
        shortRead = nil
        if let context, context.pointee.error == Self.softStop {
            // The last `avio_read` ended on a soft stop: this is a new one.
            context.pointee.error = 0
            context.pointee.eof_reached = 0
        }
        do {
            let target = UnsafeMutableRawBufferPointer(start: buffer, count: Int(size))
            let count: Int
            if rest, let ready = try source.readReady(into: target) {
                // Nothing more has arrived: end this `avio_read` with what it has.
                guard ready > 0 else { return Self.softStop }
                count = ready
            } else {
                count = try source.read(into: target)
            }
            if count == 0 { return reel_shim_averror_eof }
            if progressive, count < Int(size) { shortRead = (buffer + count, size - Int32(count)) }
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
        shortRead = nil
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

extension SourceIO {
    /// What a progressive read answers when nothing more has arrived within one `avio_read`:
    /// `AVERROR(EAGAIN)`. `avio_read` stops there and returns the bytes it has; the flags it
    /// leaves are cleared on the next read.
    static let softStop: Int32 = -Int32(EAGAIN)
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
