import Foundation
import ReelCore

/// The cells of a sweep: every scroll trace crossed with every network profile and every
/// setting, in that order (`index` runs settings fastest, so shards get every setting alike).
/// Written as `sweep.json` in the results folder; a merge refuses folders of another matrix.
/// A matrix is always whole: built from its traces, profiles and settings, or read back only when
/// its cells and ids are exactly those (a cell id names a folder, so no other id is accepted).
package struct SweepMatrix: Sendable, Codable, Equatable {
    package static let formatVersion = 1

    package let version: Int
    /// The matrix's identity: a hash of its cells and of what every cell shares.
    package let id: String
    package let traces: [SweepTrace]
    package let profiles: [String]
    package let settings: [SweepSetting]
    /// What every cell shares: configuration files and `--set` assignments, in order, and the
    /// fault rates of the simulator.
    package let shared: [String]
    package let cells: [SweepCell]
    /// Positions of traces and settings by id, so a cell finds its own in constant time.
    private let traceIndex: [String: Int]
    private let settingIndex: [String: Int]

    private enum CodingKeys: String, CodingKey {
        case version, id, traces, profiles, settings, shared, cells
    }

    /// A trace, profile or setting given twice counts once (its first place).
    package init(traces: [SweepTrace], profiles: [String], settings: [SweepSetting], shared: [String]) {
        var traceIndex: [String: Int] = [:], settingIndex: [String: Int] = [:], seenProfiles: Set<String> = []
        var uniqueTraces: [SweepTrace] = [], uniqueSettings: [SweepSetting] = []
        for trace in traces where traceIndex[trace.id] == nil {
            traceIndex[trace.id] = uniqueTraces.count
            uniqueTraces.append(trace)
        }
        for setting in settings where settingIndex[setting.id] == nil {
            settingIndex[setting.id] = uniqueSettings.count
            uniqueSettings.append(setting)
        }
        let traces = uniqueTraces, settings = uniqueSettings
        let profiles = profiles.filter { seenProfiles.insert($0).inserted }
        version = Self.formatVersion
        self.traces = traces
        self.profiles = profiles
        self.settings = settings
        self.shared = shared
        self.traceIndex = traceIndex
        self.settingIndex = settingIndex
        var cells: [SweepCell] = []
        cells.reserveCapacity(traces.count * profiles.count * settings.count)
        for trace in traces {
            for profile in profiles {
                for setting in settings {
                    cells.append(SweepCell(index: cells.count, id: Self.cellID(trace: trace.id, profile: profile, setting: setting.id, shared: shared),
                                           trace: trace.id, profile: profile, setting: setting.id))
                }
            }
        }
        self.cells = cells
        id = Self.hex(XXHash64.hash(cells.map(\.id).joined(separator: ",") + "|" + shared.joined(separator: "\u{1F}")))
    }

    /// Reads a matrix back and checks it against the one its traces, profiles and settings make:
    /// an error names the first cell whose id is not the hash of its content, that appears twice,
    /// or that names a trace, profile or setting the matrix does not have.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw ReelError(.invalidInput, "it has format \(version); this reel reads format \(Self.formatVersion)")
        }
        let traces = try container.decode([SweepTrace].self, forKey: .traces)
        let profiles = try container.decode([String].self, forKey: .profiles)
        let settings = try container.decode([SweepSetting].self, forKey: .settings)
        try Self.checkDistinct(traces.map(\.id), "trace")
        try Self.checkDistinct(profiles, "profile")
        try Self.checkDistinct(settings.map(\.id), "setting")
        self.init(traces: traces, profiles: profiles, settings: settings,
                  shared: try container.decode([String].self, forKey: .shared))
        try check(cells: try container.decode([SweepCell].self, forKey: .cells), id: try container.decode(String.self, forKey: .id))
    }

    /// In one pass over `cells`: each names what this matrix has, has the id its content gives,
    /// and appears once; then they must be this matrix's cells, in order, under its id.
    private func check(cells: [SweepCell], id: String) throws {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(cells.count)
        let profileSet = Set(profiles)
        for (position, cell) in cells.enumerated() {
            let name = "cell \(position) (\(Self.shown(cell.id)))"
            guard traceIndex[cell.trace] != nil else {
                throw ReelError(.invalidInput, "\(name) names trace \(Self.shown(cell.trace)), which the matrix does not have")
            }
            guard profileSet.contains(cell.profile) else {
                throw ReelError(.invalidInput, "\(name) names profile \(Self.shown(cell.profile)), which the matrix does not have")
            }
            guard settingIndex[cell.setting] != nil else {
                throw ReelError(.invalidInput, "\(name) names setting \(Self.shown(cell.setting)), which the matrix does not have")
            }
            let expected = Self.cellID(trace: cell.trace, profile: cell.profile, setting: cell.setting, shared: shared)
            guard cell.id == expected else {
                throw ReelError(.invalidInput, "\(name): its id is not \(expected), the hash of its trace, profile, setting and what every cell shares")
            }
            if let earlier = seen.updateValue(position, forKey: cell.id) {
                throw ReelError(.invalidInput, "cell \(cell.id) appears twice (cells \(earlier) and \(position))")
            }
        }
        guard cells == self.cells else {
            throw ReelError(.invalidInput, "its \(cells.count) cells are not every trace × profile × setting in order (\(traces.count) × \(profiles.count) × \(settings.count) = \(self.cells.count) cells)")
        }
        guard id == self.id else {
            throw ReelError(.invalidInput, "its id \(Self.shown(id)) is not \(self.id), the hash of its cells")
        }
    }

    private static func checkDistinct(_ ids: [String], _ what: String) throws {
        var seen: Set<String> = []
        for id in ids where !seen.insert(id).inserted {
            throw ReelError(.invalidInput, "\(what) \(shown(id)) is listed twice")
        }
    }

    /// A value read from a file, quoted and cut for an error message (control characters escaped).
    static func shown(_ text: String) -> String {
        JSONWriter.quoted(text.count > 80 ? String(text.prefix(80)) + "…" : text)
    }

    /// A cell's id: the hash of its trace, profile, setting and what every cell shares (16 hex
    /// digits, so always a plain folder name).
    static func cellID(trace: String, profile: String, setting: String, shared: [String]) -> String {
        hex(XXHash64.hash(([trace, profile, setting] + shared).joined(separator: "\u{1F}")))
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    package func trace(_ id: String) -> SweepTrace? { traceIndex[id].map { traces[$0] } }
    package func setting(_ id: String) -> SweepSetting? { settingIndex[id].map { settings[$0] } }

    /// The setting every other is compared with: the configuration as given.
    package var baseline: SweepSetting? { settings.first { $0.assignments.isEmpty } }
}
/// One scroll trace of a sweep: generated from a pattern and a seed, or a file.
package struct SweepTrace: Sendable, Codable, Equatable {
    /// Stable within the matrix: the pattern, seed and length, or the file's name and content hash.
    package var id: String
    /// What the report groups by: the pattern, or the file's name.
    package var pattern: String
    package var seed: UInt64?
    /// The trace's length in seconds (a file cut to it when given).
    package var seconds: Double?
    /// The file, for a trace given as one.
    package var file: String?

    package init(pattern: String, seed: UInt64, seconds: Double) {
        self.pattern = pattern
        self.seed = seed
        self.seconds = seconds
        id = "\(pattern)-s\(seed)-\(Self.number(seconds))s"
    }

    package init(file: String, contents: [UInt8], seconds: Double?) {
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
package struct SweepSetting: Sendable, Codable, Equatable, Hashable {
    /// "baseline", or the assignments as given ("prefetch=off", "a=1 b=2").
    package var id: String
    /// `key=value` assignments on top of the shared configuration (`prefetch=off` expanded).
    package var assignments: [String]

    package init(id: String, assignments: [String]) {
        self.id = id
        self.assignments = assignments
    }

    package static let baseline = SweepSetting(id: "baseline", assignments: [])
}

/// One cell: a session of one trace on one profile with one setting.
package struct SweepCell: Sendable, Codable, Equatable, Hashable {
    package var index: Int
    /// A hash of the trace, profile, setting and shared options: the cell's folder name.
    package var id: String
    package var trace: String
    package var profile: String
    package var setting: String
}
