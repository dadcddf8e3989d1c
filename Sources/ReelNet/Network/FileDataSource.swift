import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
import ReelManifest
#endif

/// Reads a local file (a `file:` URL) with plain POSIX reads, honouring the spec's byte range.
/// Blocking by design: it runs on the reader's dedicated thread.
public final class FileDataSource: DataSource {
    private var fd: Int32 = -1
    private var remaining: Int64?
    private var currentMetrics = TransferMetrics()
    private let cancellation: Cancellation

    public init(cancellation: Cancellation = Cancellation()) {
        self.cancellation = cancellation
    }

    deinit { close() }

    public func open(_ spec: DataSpec) throws -> Int64? {
        close()
        let started = ContinuousClock.now
        currentMetrics = TransferMetrics(url: spec.url.absoluteString, kind: spec.kind)
        guard spec.url.isFileURL else {
            throw ReelError(.unsupportedScheme, "refused '\(spec.url.absoluteString)': not a file URL")
        }
        let path = spec.url.path
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            throw ReelError(code == ENOENT ? .notFound : .invalidInput, "cannot open '\(path)': \(reason)")
        }
        fd = descriptor
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close()
            throw ReelError(.invalidInput, "cannot read '\(path)': not a regular file")
        }
        let size = Int64(info.st_size)
        guard spec.offset <= size else {
            close()
            throw ReelError(.invalidInput, "cannot read '\(path)' from byte \(spec.offset): the file has \(size) bytes")
        }
        if spec.offset > 0, lseek(descriptor, off_t(spec.offset), SEEK_SET) < 0 {
            close()
            throw ReelError(.invalidInput, "cannot seek in '\(path)': \(String(cString: strerror(errno)))")
        }
        let available = size - spec.offset
        remaining = spec.length.map { min($0, available) } ?? available
        currentMetrics.totalMs = (ContinuousClock.now - started).milliseconds
        return remaining
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard fd >= 0 else { throw ReelError(.internalFailure, "read before open") }
        if cancellation.isCancelled { throw ReelError(.cancelled, "read of '\(currentMetrics.url)' cancelled") }
        let want = min(buffer.count, Int(remaining ?? Int64(buffer.count)))
        guard want > 0 else { return 0 }
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, want)
            if count >= 0 {
                remaining = remaining.map { $0 - Int64(count) }
                currentMetrics.bytes += Int64(count)
                return count
            }
            if errno == EINTR { continue }
            throw ReelError(.invalidInput, "cannot read '\(currentMetrics.url)': \(String(cString: strerror(errno)))")
        }
    }

    /// A file's bytes are all there: the same as `read`.
    public func readReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? { try read(into: buffer) }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    public var metrics: TransferMetrics { currentMetrics }
}
