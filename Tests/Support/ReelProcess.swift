import Foundation
import ReelCore

/// Runs a program as a user would and captures what it prints: the one way tests start child
/// processes (`reel`, a shell, Chromium, ffmpeg). The process is waited for on a `BlockingPool`
/// thread, so the awaiting test leaves the cooperative pool free (on two cores, a test blocked
/// waiting starves every other test's tasks), and holds one of `ProcessSlots.shared` while it runs
/// (waiting first when all are taken).
package enum ChildProcess {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        /// Both streams, stdout first.
        package var output: String { stdout + stderr }
    }

    /// Runs `executable` with `arguments` to its end; `timeout` kills it (a hang fails the test
    /// instead of CI). `environment` is added to this process's own.
    package static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           directory: URL? = nil, scratch: URL? = nil, timeout: Duration = .seconds(120)) async throws -> Result {
        let running = try await start(executable, arguments, environment: environment, directory: directory, scratch: scratch)
        let process = running.process
        let killer = Task {
            try await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        let result = await running.finish()
        killer.cancel()
        return result
    }

    /// Starts `executable` without waiting for it (to signal it, or watch what it does), once a
    /// slot of `ProcessSlots.shared` is free; `finish()` gives the slot back.
    package static func start(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                             directory: URL? = nil, scratch: URL? = nil) async throws -> Running {
        await ProcessSlots.shared.acquire()
        do {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if let directory { process.currentDirectoryURL = directory }
            process.standardInput = FileHandle.nullDevice
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let outData = ReadAll(out.fileHandleForReading)
            let errData = ReadAll(err.fileHandleForReading)
            // Foundation's `waitUntilExit` spins a run loop without sources on Linux: a core busy
            // for as long as the child runs (a 3 s child cost 3 s of CPU). Its termination handler
            // comes from the SIGCHLD it already watches, after the status is set.
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
            return Running(process: process, out: outData, err: errData, exited: exited, scratch: scratch)
        } catch {
            await ProcessSlots.shared.release()
            throw error
        }
    }

    /// A process started by `start`.
    // @unchecked Sendable: `process` is only asked to wait, terminate, or for its state and pid,
    // which Foundation's `Process` guards itself; the pipes' readers and the exit hand over through semaphores.
    package struct Running: @unchecked Sendable {
        package let process: Process
        let out: ReadAll
        let err: ReadAll
        /// Signalled once, by the process's termination handler.
        let exited: DispatchSemaphore
        /// A folder made for this process alone, removed when it ends.
        let scratch: URL?

        /// The process id (to send it a signal).
        package var pid: Int32 { process.processIdentifier }

        /// Waits until what the process printed on stdout so far satisfies `condition` (a line it
        /// prints when something happened); false when it ends first or `limit` passes.
        package func waitForOutput(limit: Duration = .seconds(120), _ condition: @escaping @Sendable (String) -> Bool) async -> Bool {
            await out.received.wait(limit: limit) { condition(String(decoding: $0, as: UTF8.self)) }
        }

        /// Waits for the process to end; returns what it printed and gives its slot back. Call it once.
        package func finish() async -> Result {
            let result = await BlockingPool.shared.runToEnd { wait() }
            await ProcessSlots.shared.release()
            return result
        }

        /// Blocks until the process ends; returns what it printed.
        private func wait() -> Result {
            exited.wait()
            if let scratch { try? FileManager.default.removeItem(at: scratch) }
            return Result(status: process.terminationStatus, stdout: out.wait(), stderr: err.wait())
        }
    }
}

/// Runs the built `reel` tool. Unless `environment` says otherwise, `XDG_CACHE_HOME` points at a
/// fresh folder removed afterwards, so no test writes into the user's real cache (tests that keep
/// a cache across runs pass `--cache DIR`).
package enum ReelProcess {
    package typealias Result = ChildProcess.Result
    package typealias Running = ChildProcess.Running

    package static func run(_ arguments: [String], timeout: Duration = .seconds(120),
                           environment: [String: String] = [:]) async throws -> Result {
        let (environment, scratch) = isolated(environment)
        return try await ChildProcess.run(PackagePaths.reelBinary, arguments, environment: environment, scratch: scratch,
                                          timeout: timeout)
    }

    package static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> Running {
        let (environment, scratch) = isolated(environment)
        return try await ChildProcess.start(PackagePaths.reelBinary, arguments, environment: environment, scratch: scratch)
    }

    /// `environment` with `XDG_CACHE_HOME` set to a new scratch folder unless it sets one.
    private static func isolated(_ environment: [String: String]) -> ([String: String], URL?) {
        guard environment["XDG_CACHE_HOME"] == nil else { return (environment, nil) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-xdg-\(UUID().uuidString)")
        return (environment.merging(["XDG_CACHE_HOME": folder.path]) { $1 }, folder)
    }
}

/// Drains a pipe on a pool thread so a chatty child never blocks on a full pipe; what arrived
/// so far is watchable (a test waits for a line the child prints).
final class ReadAll: Sendable {
    let received = Watched<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        BlockingPool.shared.start { [received, done] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                received.update { $0 += chunk }
            }
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: received.current, as: UTF8.self)
    }
}
