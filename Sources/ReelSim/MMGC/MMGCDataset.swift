import Foundation
import ReelCore

/// One video of the challenge: the bytes of each 1-second chunk at each of the three levels, and
/// its retention curve (`data/short_video_size/<name>/video_size_<level>`, `data/user_ret/<name>`).
package struct MMGCVideo: Sendable, Equatable {
    package var name: String
    /// Bytes of each chunk at each level, lowest first: `sizes[level][chunk]`.
    package var sizes: [[Int]]
    /// The retention file's rows: the share of viewers still watching at 0, 1, …, L seconds
    /// (1 at 0), then the end marker (0 at L + 1). The user model samples over all of them.
    package var retentionRows: [Double]

    package init(name: String, sizes: [[Int]], retentionRows: [Double]) {
        self.name = name
        self.sizes = sizes
        self.retentionRows = retentionRows
    }

    /// Chunks (seconds) in the video.
    package var chunkCount: Int { sizes[0].count }

    /// The share still watching at each whole second 0...L, without the end marker.
    package var retention: [Double] { Array(retentionRows.prefix(chunkCount + 1)) }
}

/// A bandwidth trace: rows of `seconds Mbps`; the bandwidth of row i holds from row i - 1's time
/// to row i's (the challenge's link reads it that way).
package struct MMGCTrace: Sendable, Equatable {
    package var name: String
    package var seconds: [Double]
    package var mbps: [Double]

    package init(name: String, seconds: [Double], mbps: [Double]) {
        self.name = name
        self.seconds = seconds
        self.mbps = mbps
    }
}

/// A folder of traces, run in order (by number when every name is one).
package struct MMGCTraceSet: Sendable, Equatable {
    package var name: String
    package var traces: [MMGCTrace]

    package init(name: String, traces: [MMGCTrace]) {
        self.name = name
        self.traces = traces
    }
}

/// A checkout of the challenge repository's data, read at run time (nothing of it is part of
/// Reel): the videos in session order (their folder names sorted, as the challenge does) and the
/// four trace sets. Every file is checked; a bad one fails with its path, line and cause.
package struct MMGCDataset: Sendable {
    /// The trace sets of the challenge, in the order the scoreboard shows them.
    package static let setNames = ["mixed", "high", "low", "medium"]
    /// The levels every video has (`video_size_0` ... `video_size_2`).
    package static let levels = 3

    package var videos: [MMGCVideo]

    package init(videos: [MMGCVideo]) {
        self.videos = videos
    }

    /// Reads the videos under `root` (the repository's top folder, holding `data/`).
    package static func load(root: String) throws -> MMGCDataset {
        let data = (root as NSString).appendingPathComponent("data")
        try requireFolder(data, what: "the challenge's data folder (expected <checkout>/data)")
        let sizes = (data as NSString).appendingPathComponent("short_video_size")
        let retention = (data as NSString).appendingPathComponent("user_ret")
        try requireFolder(sizes, what: "the chunk size folder")
        try requireFolder(retention, what: "the retention folder")
        let names = try entries(sizes).filter { isFolder((sizes as NSString).appendingPathComponent($0)) }
        guard !names.isEmpty else { throw ReelError(.invalidInput, "no video folders in '\(sizes)'") }
        guard names.count <= MMGCLimits.maxVideos else {
            throw ReelError(.invalidInput, "'\(sizes)' holds \(names.count) videos, over the limit of \(MMGCLimits.maxVideos)")
        }
        let videos = try names.map { name in
            try readVideo(name: name, sizes: (sizes as NSString).appendingPathComponent(name),
                          retention: (retention as NSString).appendingPathComponent(name))
        }
        return MMGCDataset(videos: videos)
    }

    /// The challenge's four trace sets under `root`'s `data/network_traces`.
    package static func challengeTraceSets(root: String) throws -> [MMGCTraceSet] {
        let folder = ((root as NSString).appendingPathComponent("data") as NSString).appendingPathComponent("network_traces")
        try requireFolder(folder, what: "the trace folder")
        return try setNames.map { try readTraceSet(folder: (folder as NSString).appendingPathComponent($0), name: $0) }
    }

    /// The traces in `folder` (files only, hidden ones skipped), named `name`.
    package static func readTraceSet(folder: String, name: String? = nil) throws -> MMGCTraceSet {
        try requireFolder(folder, what: "the trace folder")
        var files = try entries(folder).filter { !isFolder((folder as NSString).appendingPathComponent($0)) }
        guard !files.isEmpty else { throw ReelError(.invalidInput, "no trace files in '\(folder)'") }
        guard files.count <= MMGCLimits.maxTraces else {
            throw ReelError(.invalidInput, "'\(folder)' holds \(files.count) files, over the limit of \(MMGCLimits.maxTraces) traces")
        }
        // The challenge's loader sorts its files by number; other folders go by name.
        if files.allSatisfy({ Int($0) != nil }) { files.sort { Int($0)! < Int($1)! } }
        let traces = try files.map { try readTrace((folder as NSString).appendingPathComponent($0), name: $0) }
        let setName = name ?? URL(fileURLWithPath: folder).standardizedFileURL.lastPathComponent
        return MMGCTraceSet(name: setName, traces: traces)
    }

    /// One trace file of `seconds Mbps` rows (more columns are ignored, as the challenge does).
    package static func readTrace(_ path: String, name: String) throws -> MMGCTrace {
        let lines = try MMGCText.lines(path, what: "trace")
        guard lines.count >= 2 else {
            throw ReelError(.invalidInput, "trace '\(path)' has \(lines.count) row(s); the link needs at least 2 rows of 'seconds Mbps'")
        }
        guard lines.count <= MMGCLimits.maxTraceRows else {
            throw ReelError(.invalidInput, "trace '\(path)' has \(lines.count) rows, over the limit of \(MMGCLimits.maxTraceRows)")
        }
        var seconds: [Double] = []
        var mbps: [Double] = []
        seconds.reserveCapacity(lines.count)
        mbps.reserveCapacity(lines.count)
        for line in lines {
            guard line.fields.count >= 2 else {
                throw ReelError(.invalidInput, "\(path) line \(line.number): expected 'seconds Mbps', found '\(line.fields.joined(separator: " ").prefix(60))'")
            }
            let time = try MMGCText.number(line, 0, in: path, what: "time")
            let rate = try MMGCText.number(line, 1, in: path, what: "bandwidth")
            guard time >= 0 else { throw ReelError(.invalidInput, "\(path) line \(line.number): time \(time) is negative") }
            if let last = seconds.last, time < last {
                throw ReelError(.invalidInput, "\(path) line \(line.number): time \(time) goes back (the row before says \(last))")
            }
            guard rate >= 0 else { throw ReelError(.invalidInput, "\(path) line \(line.number): bandwidth \(rate) is negative") }
            seconds.append(time)
            mbps.append(rate)
        }
        // What the link carries over one pass of the trace (row 0's bandwidth is never used).
        var megabits = 0.0
        for index in 1..<seconds.count { megabits += mbps[index] * (seconds[index] - seconds[index - 1]) }
        let span = seconds[seconds.count - 1] - seconds[0]
        guard span > 0, megabits / span >= MMGCLimits.minMeanMbps else {
            throw ReelError(.invalidInput, String(format: "trace '%@' carries %.6f Mbps on average over %.1f s; the link needs at least %g Mbps",
                                                  path, span > 0 ? megabits / span : 0, span, MMGCLimits.minMeanMbps))
        }
        return MMGCTrace(name: name, seconds: seconds, mbps: mbps)
    }

    // MARK: - Videos

    static func readVideo(name: String, sizes folder: String, retention path: String) throws -> MMGCVideo {
        var sizes: [[Int]] = []
        for level in 0..<levels {
            let file = (folder as NSString).appendingPathComponent("video_size_\(level)")
            let lines = try MMGCText.lines(file, what: "chunk sizes")
            guard !lines.isEmpty else { throw ReelError(.invalidInput, "chunk sizes '\(file)' are empty") }
            guard lines.count <= MMGCLimits.maxChunks else {
                throw ReelError(.invalidInput, "chunk sizes '\(file)' list \(lines.count) chunks, over the limit of \(MMGCLimits.maxChunks)")
            }
            sizes.append(try lines.map { try MMGCText.integer($0, 0, minimum: 1, in: file, what: "chunk size (bytes)") })
            if level > 0, sizes[level].count != sizes[0].count {
                throw ReelError(.invalidInput, "chunk sizes '\(file)' list \(sizes[level].count) chunks, but level 0 lists \(sizes[0].count)")
            }
        }
        let rows = try readRetention(path, chunks: sizes[0].count)
        return MMGCVideo(name: name, sizes: sizes, retentionRows: rows)
    }

    /// A retention file: `second share` rows for 0...L, then the end marker `L+1 0`. The shares
    /// must not rise and must fall from 1 to 0, so the user model's draw is a distribution.
    static func readRetention(_ path: String, chunks: Int) throws -> [Double] {
        let lines = try MMGCText.lines(path, what: "retention curve")
        guard lines.count == chunks + 2 else {
            throw ReelError(.invalidInput, "retention curve '\(path)' has \(lines.count) rows; a video of \(chunks) chunks needs \(chunks + 2) (seconds 0...\(chunks), then the end marker '\(chunks + 1) 0')")
        }
        var rows: [Double] = []
        for (index, line) in lines.enumerated() {
            let second = try MMGCText.number(line, 0, in: path, what: "second")
            guard second == Double(index) else {
                throw ReelError(.invalidInput, "\(path) line \(line.number): second \(line.fields[0]) should be \(index) (rows go 0, 1, 2, ...)")
            }
            let share = try MMGCText.number(line, 1, in: path, what: "retention")
            guard (0...1).contains(share) else {
                throw ReelError(.invalidInput, "\(path) line \(line.number): retention \(share) is outside 0...1")
            }
            if let last = rows.last, share > last {
                throw ReelError(.invalidInput, "\(path) line \(line.number): retention rises from \(last) to \(share)")
            }
            rows.append(share)
        }
        guard abs(rows[0] - rows[rows.count - 1] - 1) <= 1e-8 else {
            throw ReelError(.invalidInput, "retention curve '\(path)' goes from \(rows[0]) to \(rows[rows.count - 1]); it must go from 1 to 0 (the end marker)")
        }
        return rows
    }

    // MARK: - Folders

    static func requireFolder(_ path: String, what: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReelError(.invalidInput, "\(what) '\(path)' not found")
        }
        guard isDirectory.boolValue else { throw ReelError(.invalidInput, "\(what) '\(path)' is not a folder") }
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The visible entries of a folder, sorted by their bytes (Python's sort of names).
    static func entries(_ folder: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ReelError(.invalidInput, "cannot list '\(folder)': \(error.localizedDescription)")
        }
        return names.filter { !$0.hasPrefix(".") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
