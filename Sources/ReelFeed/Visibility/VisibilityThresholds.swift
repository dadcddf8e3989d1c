import ReelCore
/// Visible-fraction thresholds of one widget type, as plain numbers for the hot path.
public struct VisibilityThresholds: Sendable, Equatable {
    public var mount: Double
    public var ready: Double
    public var softRelease: Double
    public var pause: Double
    public var unmount: Double

    public init(mount: Double, ready: Double, softRelease: Double, pause: Double, unmount: Double) {
        self.mount = mount
        self.ready = ready
        self.softRelease = softRelease
        self.pause = pause
        self.unmount = unmount
    }

    public init(_ settings: VisibilitySettings.Thresholds) {
        self.init(mount: settings.mount, ready: settings.ready, softRelease: settings.softRelease, pause: settings.pause, unmount: settings.unmount)
    }
}
