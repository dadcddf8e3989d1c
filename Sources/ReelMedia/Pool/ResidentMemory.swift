import Foundation

/// The process's resident set size, read from `/proc/self/statm` (Linux); nil where there is none.
public enum ResidentMemory {
    /// Resident memory in megabytes (10^6 bytes).
    public static func megabytes() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_000_000
    }
}

/// The process's threads, counted in `/proc/self/task` (Linux); nil where there is none.
public enum ProcessThreads {
    public static func count() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }
}
