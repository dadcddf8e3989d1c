/// What the launch state database holds, as decoded (`LaunchStateRows.decode`): the state, the
/// cached configuration, the asset rows, and what could not be taken as it was.
public struct StoredLaunchState: Sendable, Hashable {
    public var state = LaunchState()
    public var configuration: StoredConfiguration?
    public var assets: [StoredAsset] = []
    /// Asset URLs whose check never finished: the process ended while rlottie was checking them
    /// (a crash or a kill). Their rows decode as refused, so the next launch does not check them
    /// again.
    public var interruptedChecks: [String] = []
    /// Rows that do not decode (a value of the wrong type or out of range): left out, and
    /// removed from the database when it is opened.
    public var damaged: [DamagedRow] = []

    public init() {}
}

/// A row of the launch state that does not decode, and why.
public struct DamagedRow: Sendable, Hashable {
    public var table: String
    public var rowid: Int64
    /// "launches is text 'many'", "lastShown 1e+300 is not a time".
    public var problem: String

    public init(table: String, rowid: Int64, problem: String) {
        self.table = table
        self.rowid = rowid
        self.problem = problem
    }
}
