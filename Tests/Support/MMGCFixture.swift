import Foundation

/// A tiny dataset in the format of the ACM MM 2022 short-video challenge, written by the tests
/// themselves (none of the challenge's own data is committed): seven videos of 2 to 7 chunks with
/// sizes around the three levels' bitrates and falling retention curves, and four trace sets of
/// two 12-second traces each ('seconds Mbps' every 0.5 s, so a session wraps around them). Every
/// number comes from a small integer formula, so the figures the tests expect could be computed
/// independently (by the reference reimplementation of the challenge's run.py).
public enum MMGCFixture {
    public static let chunks = [4, 6, 3, 5, 2, 7, 4]
    static let drops = [15, 10, 20, 12, 30, 8, 18]
    static let bytesPerLevel = [1000, 1600, 2500]
    /// Each set's base bandwidth, kbit/s.
    public static let sets: [(name: String, kbps: Int)] = [("high", 4000), ("medium", 2000), ("low", 1200), ("mixed", 2600)]
    public static let traceRows = 24

    /// The videos' folder names, in session order.
    public static var names: [String] { chunks.indices.map { "v\($0 + 1)" } }

    /// Writes `data/` (sizes, retention curves, the four trace sets) under `root`.
    public static func write(to root: URL) throws {
        let data = root.appendingPathComponent("data")
        for (index, name) in names.enumerated() {
            let folder = data.appendingPathComponent("short_video_size/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for level in 0..<3 {
                let sizes = (0..<chunks[index]).map { chunk in
                    bytesPerLevel[level] * (80 + (chunk * 37 + index * 11 + level * 5) % 41)
                }
                try sizes.map { "\($0)\n" }.joined().write(to: folder.appendingPathComponent("video_size_\(level)"), atomically: true, encoding: .utf8)
            }
            let retention = data.appendingPathComponent("user_ret")
            try FileManager.default.createDirectory(at: retention, withIntermediateDirectories: true)
            var rows = (0...chunks[index]).map { second in "\(second)\t\(share(100 - second * drops[index]))" }
            rows.append("\(chunks[index] + 1)\t0")
            // No newline after the end marker, as in the challenge's own files.
            try rows.joined(separator: "\n").write(to: retention.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for (set, kbps) in sets {
            let folder = data.appendingPathComponent("network_traces/\(set)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for trace in 0..<2 {
                try self.trace(kbps: kbps, variant: trace).write(to: folder.appendingPathComponent("\(trace)"), atomically: true, encoding: .utf8)
            }
        }
    }

    /// A trace's text: rows every 0.5 s around `kbps`.
    public static func trace(kbps: Int, variant: Int) -> String {
        (0..<traceRows).map { row in
            let milli = kbps * (50 + (row * 29 + variant * 13) % 61) / 100
            return "\(row / 2).\(5 * (row % 2)) \(milli / 1000).\(String(format: "%03d", milli % 1000))\n"
        }.joined()
    }

    static func share(_ percent: Int) -> String {
        percent == 100 ? "1" : percent == 0 ? "0" : String(format: "0.%02d", percent)
    }

    /// A fresh folder holding the dataset (the caller removes it).
    public static func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-mmgc-\(UUID().uuidString)")
        try write(to: root)
        return root
    }
}
