extension Duration {
    /// The duration in (fractional) seconds.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// The duration in (fractional) milliseconds.
    public var milliseconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) * 1000 + Double(attoseconds) / 1e15
    }
}
