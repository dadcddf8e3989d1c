extension ReelConfig {
    /// Rules between keys that a single key's range cannot express, one message per broken rule.
    public func consistencyProblems() -> [String] {
        var problems: [String] = []
        for type in WidgetType.allCases {
            let t = visibility.thresholds(for: type)
            let prefix = "visibility.\(type.rawValue)"
            if !(t.unmount < t.mount) {
                problems.append("\(prefix).unmount (\(t.unmount)) must be below \(prefix).mount (\(t.mount))")
            }
            if !(t.mount <= t.ready) {
                problems.append("\(prefix).mount (\(t.mount)) must not exceed \(prefix).ready (\(t.ready))")
            }
            if !(t.pause <= t.ready) {
                problems.append("\(prefix).pause (\(t.pause)) must not exceed \(prefix).ready (\(t.ready)), or a resting card would flap")
            }
            if !(t.pause <= t.softRelease) {
                problems.append("\(prefix).pause (\(t.pause)) must not exceed \(prefix).softRelease (\(t.softRelease))")
            }
        }
        if layout.breakpoints.medium > layout.breakpoints.large {
            problems.append("layout.breakpoints.medium (\(layout.breakpoints.medium)) must not exceed layout.breakpoints.large (\(layout.breakpoints.large))")
        }
        if widgets.carouselMinSize > widgets.carouselSize {
            problems.append("widgets.carouselMinSize (\(widgets.carouselMinSize)) must not exceed widgets.carouselSize (\(widgets.carouselSize))")
        }
        if widgets.merch.imageAspectRatios.isEmpty {
            problems.append("widgets.merch.imageAspectRatios must list at least one ratio")
        }
        if network.readBufferLowWaterBytes >= network.readBufferHighWaterBytes {
            problems.append("network.readBufferLowWaterBytes (\(network.readBufferLowWaterBytes)) must be below network.readBufferHighWaterBytes (\(network.readBufferHighWaterBytes))")
        }
        if visibility.prefetch.keepScreens < visibility.prefetch.screens {
            problems.append("visibility.prefetch.keepScreens (\(visibility.prefetch.keepScreens)) must be at least visibility.prefetch.screens (\(visibility.prefetch.screens))")
        }
        return problems
    }
}
