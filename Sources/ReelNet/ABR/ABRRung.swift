import ReelManifest
/// One variant the adaptive rule may choose: its peak bitrate and picture size, as the master
/// playlist gives them.
public struct ABRRung: Sendable, Hashable {
    public var bandwidth: Int
    public var resolution: Resolution?

    public init(bandwidth: Int, resolution: Resolution? = nil) {
        self.bandwidth = bandwidth
        self.resolution = resolution
    }
}
