import Foundation
import ReelCore

/// The cells of a sweep: every scroll trace crossed with every network profile and every
/// setting, in that order (`index` runs settings fastest, so shards get every setting alike).
/// Written as `sweep.json` in the results folder; a merge refuses folders of another matrix.
public struct SweepMatrix: Sendable, Codable, Equatable {
    public static let formatVersion = 1

    public var version: Int
    /// The matrix's identity: a hash of its cells and of what every cell shares.
    public var id: String
    public var traces: [SweepTrace]
    public var profiles: [String]
    public var settings: [SweepSetting]
    /// What every cell shares: configuration files and `--set` assignments, in order, and the
    /// fault rates of the simulator.
    public var shared: [String]
    public var cells: [SweepCell]

    public init(traces: [SweepTrace], profiles: [String], settings: [SweepSetting], shared: [String]) {
        version = Self.formatVersion
        self.traces = traces
        self.profiles = profiles
        self.settings = settings
        self.shared = shared
        var cells: [SweepCell] = []
        for trace in traces {
            for profile in profiles {
                for setting in settings {
                    let key = ([trace.id, profile, setting.id] + shared).joined(separator: "\u{1F}")
                    cells.append(SweepCell(index: cells.count, id: Self.hex(XXHash64.hash(key)), trace: trace.id,
                                           profile: profile, setting: setting.id))
                }
            }
        }
        self.cells = cells
        id = Self.hex(XXHash64.hash(cells.map(\.id).joined(separator: ",") + "|" + shared.joined(separator: "\u{1F}")))
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public func trace(_ id: String) -> SweepTrace? { traces.first { $0.id == id } }
    public func setting(_ id: String) -> SweepSetting? { settings.first { $0.id == id } }

    /// The setting every other is compared with: the configuration as given.
    public var baseline: SweepSetting? { settings.first { $0.assignments.isEmpty } }
}

/// One scroll trace of a sweep: generated from a pattern and a seed, or a file.
public struct SweepTrace: Sendable, Codable, Equatable {
    /// Stable within the matrix: the pattern, seed and length, or the file's name and content hash.
    public var id: String
    /// What the report groups by: the pattern, or the file's name.
    public var pattern: String
    public var seed: UInt64?
    /// The trace's length in seconds (a file cut to it when given).
    public var seconds: Double?
    /// The file, for a trace given as one.
    public var file: String?

    public init(pattern: String, seed: UInt64, seconds: Double) {
        self.pattern = pattern
        self.seed = seed
        self.seconds = seconds
        id = "\(pattern)-s\(seed)-\(Self.number(seconds))s"
    }

    public init(file: String, contents: [UInt8], seconds: Double?) {
        let name = URL(fileURLWithPath: file).lastPathComponent
        pattern = name
        self.file = file
        self.seconds = seconds
        id = "\(name)-\(SweepMatrix.hex(XXHash64.hash(contents)).prefix(8))" + (seconds.map { "-\(Self.number($0))s" } ?? "")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// One setting of a sweep: the configuration as given (the baseline), or with assignments on top.
public struct SweepSetting: Sendable, Codable, Equatable, Hashable {
    /// "baseline", or the assignments as given ("prefetch=off", "a=1 b=2").
    public var id: String
    /// `key=value` assignments on top of the shared configuration (`prefetch=off` expanded).
    public var assignments: [String]

    public init(id: String, assignments: [String]) {
        self.id = id
        self.assignments = assignments
    }

    public static let baseline = SweepSetting(id: "baseline", assignments: [])
}

/// One cell: a session of one trace on one profile with one setting.
public struct SweepCell: Sendable, Codable, Equatable, Hashable {
    public var index: Int
    /// A hash of the trace, profile, setting and shared options: the cell's folder name.
    public var id: String
    public var trace: String
    public var profile: String
    public var setting: String
}
