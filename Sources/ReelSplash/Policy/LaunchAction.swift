import ReelCore
import Foundation

/// What the launch policy asks its executor to do: background work (never awaited by a
/// decision) and the state to persist.
public enum LaunchAction: Sendable, Hashable {
    /// Fetch the splash configuration; answer with `configurationFetched` or `configurationFailed`.
    case fetchConfiguration(URL)
    /// Download, validate and store an asset; answer with `assetStored`.
    case downloadAsset(String)
    /// Delete a stored asset no configured splash needs any more (its record is gone already).
    case deleteAsset(String)
    /// Persist that a splash was shown at this time.
    case recordDisplay(splash: String, at: Date)
    /// Persist a crash.
    case recordCrash(CrashRecord)
    /// Persist the lifecycle as it now stands.
    case saveLifecycle(LaunchLifecycle)
}
