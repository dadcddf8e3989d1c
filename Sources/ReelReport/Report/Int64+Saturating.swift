extension Int64 {
    /// The sum, held at `Int64.max` or `.min` instead of trapping: byte counts in an events file
    /// are whatever the file says, and a report of absurd numbers beats a crash.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// The saturating sum of `values`.
    static func saturatingSum<S: Sequence>(_ values: S) -> Int64 where S.Element == Int64 {
        values.reduce(0) { $0.saturatingAdding($1) }
    }
}
