import ReelCore
extension Int64 {
    /// `self + other`, or nil when the sum does not fit: numbers read from a manifest may be
    /// anything, and a trap would end the process instead of refusing the manifest.
    func checkedAdding(_ other: Int64) -> Int64? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }

    /// `self * other`, or nil when the product does not fit (see `checkedAdding`).
    func checkedMultiplying(by other: Int64) -> Int64? {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? nil : product
    }
}
