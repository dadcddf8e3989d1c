/// The file-system calls that make a cache write durable (fsync of the file, rename into
/// `data/`, fsync of the folder): a seam through which a test watches their order against the
/// index row, or injects a failure. `.posix` is the real one.
public protocol CacheFileSystem: Sendable {
    /// Flushes a file's bytes to the disk. The corresponding C function is `fsync`.
    func sync(_ descriptor: Int32, path: String) throws
    /// Moves a sealed file into place. The corresponding C function is `rename`.
    func rename(_ from: String, to: String) throws
    /// Makes a rename inside `folder` durable. The corresponding C function is `fsync` on the folder.
    func syncDirectory(_ folder: String) throws
}

/// The real file system.
public struct PosixCacheFileSystem: CacheFileSystem {
    public init() {}
    public func sync(_ descriptor: Int32, path: String) throws { try CacheFiles.sync(descriptor, path: path) }
    public func rename(_ from: String, to: String) throws { try CacheFiles.rename(from, to: to) }
    public func syncDirectory(_ folder: String) throws { try CacheFiles.syncDirectory(folder) }
}

extension CacheFileSystem where Self == PosixCacheFileSystem {
    public static var posix: PosixCacheFileSystem { PosixCacheFileSystem() }
}
