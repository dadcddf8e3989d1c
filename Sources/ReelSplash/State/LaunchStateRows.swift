import Foundation
import ReelCore
import ReelStore

/// The launch state's rows as SQLite returns them, and their decoding: a pure function over
/// `SQLiteValue`s, so a damaged database (text in `launches`, a blob id, `checksum = 1e300`)
/// gives a list of damaged rows instead of a trap, and the decoding can be fuzzed without a
/// database. `LaunchStateStore` reads each table's columns in the order of `columns` and writes
/// rows made by the encoders below, the same functions the decoding is checked against.
public struct LaunchStateRows: Sendable, Hashable {
    /// One row: its rowid (to remove it when it is damaged) and its values in `columns` order.
    public struct Row: Sendable, Hashable {
        public var rowid: Int64
        public var values: [SQLiteValue]

        public init(rowid: Int64, values: [SQLiteValue]) {
            self.rowid = rowid
            self.values = values
        }
    }

    public var lifecycle: [Row] = []
    public var display: [Row] = []
    public var crash: [Row] = []
    public var configuration: [Row] = []
    public var asset: [Row] = []

    public init() {}

    /// The columns read from each table, in order.
    package static let columns: [(table: String, columns: [String])] = [
        ("lifecycle", ["launches", "lastEventAt", "sessionStart", "endedAt", "crashGuardPending"]),
        ("display", ["splash", "lastShown"]),
        ("crash", ["at", "sessionSeconds"]),
        ("configuration", ["url", "fetchedAt", "body"]),
        ("asset", ["url", "file", "bytes", "checksum", "status", "problem", "at"]),
    ]

    /// Times outside years 1 to 9999 are not times (an ISO 8601 date cannot name them).
    static let times: ClosedRange<Double> = -62_135_596_800...253_402_300_799
    /// Largest asset size taken from a row.
    static let largestAsset: Int64 = 1 << 40
    /// What a refused asset whose check never finished is refused for.
    static let interruptedProblem = "its check never finished: the app ended while rlottie was checking it (a crash or a kill)"

    // MARK: Decoding

    /// What the rows hold: every row that decodes, each that does not listed in `damaged`.
    public func decode() -> StoredLaunchState {
        var stored = StoredLaunchState()
        var damaged: [DamagedRow] = []
        for row in lifecycle {
            attempt(row, "lifecycle", &damaged) { reader in
                var lifecycle = LaunchLifecycle()
                lifecycle.launches = Int(try reader.integer("launches", in: 0...Int64(Int32.max)))
                lifecycle.lastEventAt = try reader.time("lastEventAt", nullable: true)
                lifecycle.sessionStart = try reader.time("sessionStart", nullable: true)
                lifecycle.endedAt = try reader.time("endedAt", nullable: true)
                lifecycle.crashGuardPending = try reader.integer("crashGuardPending", in: 0...1) == 1
                stored.state.lifecycle = lifecycle
            }
        }
        for row in display {
            attempt(row, "display", &damaged) { reader in
                let splash = try reader.text("splash")
                stored.state.lastDisplayed[splash] = try reader.time("lastShown")
            }
        }
        var crashes: [CrashRecord] = []
        for row in crash.sorted(by: { $0.rowid < $1.rowid }) {
            attempt(row, "crash", &damaged) { reader in
                crashes.append(CrashRecord(time: try reader.time("at")!, sessionSeconds: try reader.duration("sessionSeconds")))
            }
        }
        stored.state.crashes = Array(crashes.suffix(LaunchState.crashesKept))
        for row in configuration {
            attempt(row, "configuration", &damaged) { reader in
                stored.configuration = StoredConfiguration(url: try reader.text("url"), fetchedAt: try reader.time("fetchedAt")!,
                                                           body: try reader.blob("body"))
            }
        }
        var urls: Set<String> = []
        for row in asset {
            attempt(row, "asset", &damaged) { reader in
                let url = try reader.text("url")
                let file = try reader.optionalText("file")
                if let file, !StoredAsset.isFileName(file) { throw reader.problem("file", "is not an asset file name") }
                let bytes = Int(try reader.integer("bytes", in: 0...Self.largestAsset))
                let checksum = UInt64(bitPattern: try reader.integer("checksum", in: Int64.min...Int64.max))
                let statusText = try reader.text("status")
                let problem = try reader.text("problem")
                let at = try reader.time("at")!
                guard !urls.contains(url) else { throw reader.problem("url", "names an asset twice") }
                let status: SplashAssetStatus
                switch statusText {
                case "valid":
                    guard file != nil else { throw reader.problem("file", "is missing for a valid asset") }
                    status = .valid
                case "invalid": status = .invalid(problem)
                case "failed": status = .failed(problem, at: at)
                case "checking":
                    status = .invalid(Self.interruptedProblem)
                    stored.interruptedChecks.append(url)
                default: throw reader.problem("status", "is not valid, invalid, failed or checking")
                }
                urls.insert(url)
                stored.assets.append(StoredAsset(url: url, file: status == .valid ? file : nil, bytes: bytes, checksum: checksum, status: status))
            }
        }
        stored.damaged = damaged
        return stored
    }

    /// Decodes one row with `body`; a row that does not decode is listed in `damaged`.
    private func attempt(_ row: Row, _ table: String, _ damaged: inout [DamagedRow], _ body: (RowReader) throws -> Void) {
        let names = Self.columns.first { $0.table == table }?.columns ?? []
        do {
            guard row.values.count == names.count else {
                throw DamagedValue(problem: "has \(row.values.count) values, not \(names.count)")
            }
            try body(RowReader(names: names, values: row.values))
        } catch {
            damaged.append(DamagedRow(table: table, rowid: row.rowid, problem: (error as? DamagedValue)?.problem ?? "\(error)"))
        }
    }

    struct DamagedValue: Error {
        var problem: String
    }

    /// Reads a row's values by column name, each of the type and range it must have.
    struct RowReader {
        var names: [String]
        var values: [SQLiteValue]

        func value(_ name: String) -> SQLiteValue {
            names.firstIndex(of: name).map { values[$0] } ?? .null
        }

        func problem(_ name: String, _ reason: String) -> DamagedValue {
            DamagedValue(problem: "\(name) \(value(name).summary) \(reason)")
        }

        func integer(_ name: String, in range: ClosedRange<Int64>) throws(DamagedValue) -> Int64 {
            guard case .integer(let number) = value(name) else { throw problem(name, "is not an integer") }
            guard range.contains(number) else { throw problem(name, "is outside \(range.lowerBound)...\(range.upperBound)") }
            return number
        }

        /// Seconds since 1970 (REAL, or an INTEGER where SQLite stored a whole number so).
        func time(_ name: String, nullable: Bool = false) throws(DamagedValue) -> Date? {
            let seconds: Double
            switch value(name) {
            case .null where nullable: return nil
            case .real(let number): seconds = number
            case .integer(let number): seconds = Double(number)
            default: throw problem(name, "is not a time")
            }
            guard LaunchStateRows.times.contains(seconds) else { throw problem(name, "is not a time between the years 1 and 9999") }
            return Date(timeIntervalSince1970: seconds)
        }

        /// Seconds, 0 or more.
        func duration(_ name: String) throws(DamagedValue) -> Double {
            let seconds: Double
            switch value(name) {
            case .real(let number): seconds = number
            case .integer(let number): seconds = Double(number)
            default: throw problem(name, "is not a number of seconds")
            }
            guard seconds >= 0, seconds <= LaunchStateRows.times.upperBound else { throw problem(name, "is not a number of seconds") }
            return seconds
        }

        func text(_ name: String) throws(DamagedValue) -> String {
            guard case .text(let text) = value(name) else { throw problem(name, "is not text") }
            return text
        }

        func optionalText(_ name: String) throws(DamagedValue) -> String? {
            if case .null = value(name) { return nil }
            return try text(name)
        }

        func blob(_ name: String) throws(DamagedValue) -> [UInt8] {
            guard case .blob(let bytes) = value(name) else { throw problem(name, "is not a blob") }
            return bytes
        }
    }

    // MARK: Encoding

    package static func values(_ lifecycle: LaunchLifecycle) -> [SQLiteValue] {
        [.integer(Int64(lifecycle.launches)), time(lifecycle.lastEventAt), time(lifecycle.sessionStart), time(lifecycle.endedAt),
         .integer(lifecycle.crashGuardPending ? 1 : 0)]
    }

    package static func values(display splash: String, at: Date) -> [SQLiteValue] {
        [.text(splash), time(at)]
    }

    package static func values(_ crash: CrashRecord) -> [SQLiteValue] {
        [time(crash.time), .real(crash.sessionSeconds)]
    }

    package static func values(_ configuration: StoredConfiguration) -> [SQLiteValue] {
        [.text(configuration.url), time(configuration.fetchedAt), .blob(configuration.body)]
    }

    package static func values(_ asset: StoredAsset) -> [SQLiteValue] {
        let (status, problem, at): (String, String, Double) = switch asset.status {
        case .valid: ("valid", "", 0)
        case .invalid(let problem): ("invalid", problem, 0)
        case .failed(let problem, let at): ("failed", problem, at.timeIntervalSince1970)
        }
        return [.text(asset.url), asset.file.map(SQLiteValue.text) ?? .null, .integer(Int64(asset.bytes)),
                .integer(Int64(bitPattern: asset.checksum)), .text(status), .text(problem), .real(at)]
    }

    /// The row of an asset being checked: if the process ends before the check does, the next
    /// open finds it so and refuses the asset.
    package static func values(checking url: String, bytes: Int, checksum: UInt64) -> [SQLiteValue] {
        [.text(url), .null, .integer(Int64(bytes)), .integer(Int64(bitPattern: checksum)), .text("checking"), .text(""), .real(0)]
    }

    private static func time(_ date: Date?) -> SQLiteValue {
        date.map { .real($0.timeIntervalSince1970) } ?? .null
    }

    /// The rows a store holding `stored` would have (rowids from 1 in each table): what
    /// decoding is checked against.
    public init(_ stored: StoredLaunchState) {
        func rows(_ values: [[SQLiteValue]]) -> [Row] {
            values.enumerated().map { Row(rowid: Int64($0.offset + 1), values: $0.element) }
        }
        lifecycle = rows([Self.values(stored.state.lifecycle)])
        display = rows(stored.state.lastDisplayed.sorted { $0.key < $1.key }.map { Self.values(display: $0.key, at: $0.value) })
        crash = rows(stored.state.crashes.map(Self.values))
        configuration = rows(stored.configuration.map { [Self.values($0)] } ?? [])
        asset = rows(stored.assets.map(Self.values))
    }
}
