import ReelCore
import Foundation

/// What the launch state knows of one asset URL. An asset the state does not know is not cached.
public enum SplashAssetStatus: Sendable, Hashable {
    /// Cached and valid: a splash using it may show.
    case valid
    /// Downloaded and refused (too big, too long, too fast, not Lottie, ...): the problems.
    case invalid(String)
    /// The download failed (404, network) at that time; it is tried again once the
    /// configuration's refresh period has passed.
    case failed(String, at: Date)
}
