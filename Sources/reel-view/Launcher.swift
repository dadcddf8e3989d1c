import Foundation
import Logging
import ReelCore
import ReelLaunch
import ReelNet
import ReelSplash

/// The viewer's launch: the launch controller on its state folder decides what shows (a splash,
/// the loading animation or nothing), a splash's asset is read for drawing, and at the end the
/// app goes to the background and the downloads the decision started finish, so the next launch
/// may show what they brought.
struct Launcher: Sendable {
    let controller: LaunchController
    let renderer: LottieRenderer

    /// How long closing waits for downloads still running before it cancels them.
    static let closeLimit: Duration = .seconds(5)

    /// Opens the launch state in `options.launchState`. When `launch.splash.configURL` is unset and
    /// the served folder has `launch/splash-config.json` (the bundled samples do), that file is the
    /// configuration: a local file keeps its assets' URLs the same from one run to the next, where
    /// the simulator's port changes.
    static func open(options: ViewerOptions, resolution: ConfigResolution, servedFolder: URL?,
                     factory: any DataSourceFactory) async throws -> Launcher {
        var parameters = try LaunchParameters(resolution: resolution)
        if parameters.configurationURL == nil, let servedFolder {
            let file = servedFolder.appendingPathComponent("launch/splash-config.json")
            if FileManager.default.fileExists(atPath: file.path) { parameters.configurationURL = file.standardizedFileURL }
        }
        let clock = options.launchTime.map { LaunchClock.following(ContinuousClock(), from: $0) } ?? .system
        let renderer = LottieRenderer()
        // Assets are checked in a child process: this executable, started with SplashAssetChild's argument.
        let controller = await LaunchController.open(directory: options.launchState, parameters: parameters, factory: factory,
                                                     checker: ChildProcessAssetChecker.currentExecutable(), clock: clock)
        return Launcher(controller: controller, renderer: renderer)
    }

    /// The launch event's decision, with a splash's asset ready to draw (a splash whose asset
    /// cannot be read shows nothing, with a warning).
    func decide() async -> LaunchShow {
        let decision = await controller.handle(.launch)
        switch decision.show {
        case .nothing:
            return .nothing(reason: decision.reason.rawValue)
        case .loadingAnimation:
            return .loading(decision.loading ?? LoadingAnimationPlan(), reason: decision.reason.rawValue)
        case .splash(let id):
            guard let url = decision.assetURL, let file = await controller.assetFile(for: url) else {
                ReelLog.launch.warning("splash '\(id)' has no cached asset to draw")
                return .nothing(reason: decision.reason.rawValue)
            }
            do {
                let bytes = try await BlockingPool.shared.run { try [UInt8](Data(contentsOf: file)) }
                return .splash(try SplashAnimation(id: id, bytes: bytes, renderer: renderer))
            } catch {
                ReelLog.launch.warning("splash '\(id)' cannot be drawn: \((error as? ReelError)?.description ?? "\(error)")")
                return .nothing(reason: decision.reason.rawValue)
            }
        }
    }

    /// The app leaves: a background event ends the session, the downloads started finish (for at
    /// most `closeLimit`), and the state closes.
    func close() async {
        await controller.handle(.background)
        let controller = self.controller
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await controller.waitUntilIdle() }
            group.addTask { try? await Task.sleep(for: Self.closeLimit) }
            await group.next()
            group.cancelAll()
        }
        await controller.close()
    }
}

/// A splash's Lottie animation, drawn by rlottie on the renderer's thread a frame ahead of the
/// screen: the screen asks for the frame its time calls for and shows the newest one drawn at or
/// before it. Only the last few frames are kept, so a long splash costs no more memory than a
/// short one.
final class SplashAnimation: Sendable {
    let id: String
    let framesPerSecond: Double
    let frameCount: Int
    let width: Int
    let height: Int
    private let drawn = Locked<[Int: RGBAImage]>([:])
    private let wanted = Watched(0)
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Checks the asset (JSON, Lottie structure) and starts drawing its first frame.
    init(id: String, bytes: [UInt8], renderer: LottieRenderer) throws {
        let inspection = LottieInspection(try JSONParser.parse(bytes: bytes))
        guard inspection.problems.isEmpty, let fps = inspection.frameRate, fps > 0, let frames = inspection.frames, frames > 0,
              let width = inspection.width, let height = inspection.height else {
            throw ReelError(.invalidInput, "splash '\(id)': \(inspection.problems.joined(separator: "; "))")
        }
        self.id = id
        framesPerSecond = fps
        frameCount = frames
        self.width = width
        self.height = height
        let (drawn, wanted) = (self.drawn, self.wanted)
        task.withLock {
            $0 = Task {
                var next = 0
                while next < frames, !Task.isCancelled {
                    // One frame ahead of the screen at most.
                    let frame = next
                    guard await wanted.wait(limit: .seconds(3600), until: { $0 + 1 >= frame }) else { continue }
                    guard let image = try? await renderer.render(bytes, frame: next, name: id) else { return }
                    let done = next
                    drawn.withLock { frames in
                        frames[done] = image
                        frames = frames.filter { $0.key >= done - 2 }
                    }
                    next = max(next + 1, wanted.current)
                }
            }
        }
    }

    deinit { stop() }

    /// Seconds the animation lasts.
    var seconds: Double { Double(frameCount) / framesPerSecond }

    /// The frame to show `seconds` into the animation: the newest drawn at or before the one due.
    func frame(at seconds: Double) -> (index: Int, image: RGBAImage)? {
        let due = min(frameCount - 1, max(0, Int(seconds * framesPerSecond)))
        if wanted.current != due { wanted.update { $0 = due } }
        return drawn.withLock { frames in
            frames.keys.filter { $0 <= due }.max().map { ($0, frames[$0]!) }
        }
    }

    /// Stops drawing: the drawing task ends (it waits for the screen's next frame otherwise).
    func stop() {
        task.withLock { $0?.cancel() }
        wanted.update { $0 = frameCount }
    }
}
