import ReelCore
/// Screen size classes by width: below `layout.breakpoints.medium` small, below
/// `layout.breakpoints.large` medium, else large.
public enum ScreenClass: String, Sendable, CaseIterable {
    case small, medium, large

    public init(width: Double, breakpoints: LayoutSettings.Breakpoints) {
        if width >= Double(breakpoints.large) {
            self = .large
        } else if width >= Double(breakpoints.medium) {
            self = .medium
        } else {
            self = .small
        }
    }
}
