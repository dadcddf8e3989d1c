/// Where a downloaded splash asset meets rlottie first: checks it against the limits and draws
/// every frame. `ChildProcessAssetChecker` does it in a child process with bounded memory and
/// time, the one way to survive an asset that makes rlottie allocate or loop without end;
/// `LottieRenderer` does it in this process, for assets known to be safe.
public protocol SplashAssetChecker: Sendable {
    /// The report on `bytes` (see `LottieAssetCheck.run`). A check that crashed or ran out of
    /// its bounds is a report with that problem: the asset is refused. Throws only when the
    /// check could not run at all (the checker's program cannot be started, or did not answer),
    /// which says nothing about the asset.
    func check(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool) async throws -> SplashAssetReport
}
