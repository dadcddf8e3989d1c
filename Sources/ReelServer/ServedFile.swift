#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// An open regular file under the served directory. Owns its descriptor and closes it in
/// `deinit`, so a read still running on the thread pool keeps it open. Every call here blocks:
/// run them on the thread pool, never on an event loop.
final class ServedFile: Sendable {
    /// What looking a path up found.
    enum Lookup: Sendable {
        case file(ServedFile)
        case notFound
        case forbidden
    }

    let descriptor: Int32
    /// Size in bytes when opened.
    let size: Int

    private init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    deinit {
        _ = close(descriptor)
    }

    /// Opens `components` under `root` (already passed through `realpath`), refusing anything
    /// whose real path (symlinks resolved) lies outside the root. The C functions underneath are
    /// `realpath`, `open` (O_NOFOLLOW, O_NONBLOCK so a FIFO cannot hang it) and `fstat`.
    static func open(components: [String], root: String) -> Lookup {
        let joined = components.isEmpty ? root : root + "/" + components.joined(separator: "/")
        guard let resolvedPointer = realpath(joined, nil) else {
            return errno == EACCES ? .forbidden : .notFound
        }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        guard root == "/" || resolved == root || resolved.hasPrefix(root + "/") else { return .forbidden }
        let descriptor = resolved.withCString { systemOpen($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard descriptor >= 0 else { return errno == EACCES ? .forbidden : .notFound }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(descriptor)
            return .notFound
        }
        return .file(ServedFile(descriptor: descriptor, size: Int(info.st_size)))
    }

    /// Reads up to `count` bytes at `offset` (fewer only at the end of the file).
    /// The C function underneath is `pread`.
    func read(offset: Int, count: Int) throws(CDNServerError) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        var failure: Int32 = 0
        let done = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            var total = 0
            while total < count {
                let got = pread(descriptor, raw.baseAddress! + total, count - total, off_t(offset + total))
                if got > 0 {
                    total += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
            return total
        }
        guard failure == 0 else {
            throw CDNServerError(.readFailed, "pread failed at offset \(offset): \(String(cString: strerror(failure)))")
        }
        _ = done
        return buffer
    }
}

/// `open(2)` under a name that does not clash with `ServedFile.open`.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}
