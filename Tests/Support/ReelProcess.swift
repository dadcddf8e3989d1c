import Foundation

/// Runs the built `reel` tool as a user would and captures what it prints.
public struct ReelProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `reel` with `arguments` and returns what it printed; `timeout` kills it (a hang fails
    /// the test instead of CI). The process is waited for on a thread of its own, so the awaiting
    /// test leaves the cooperative pool free (on two cores, a test blocked waiting starves every
    /// other test's tasks). Unless `environment` says otherwise, `XDG_CACHE_HOME` points at a
    /// fresh folder removed afterwards, so no test writes into the user's real cache (tests that
    /// keep a cache across runs pass `--cache DIR`).
    /// Holds one of `ProcessSlots.shared` while the process runs (waiting first when all are taken).
    public static func run(_ arguments: [String], timeout: Duration = .seconds(120),
                           environment: [String: String] = [:]) async throws -> Result {
        let process = try await start(arguments, environment: environment)
        let killer = DispatchWorkItem { if process.process.isRunning { process.process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000)), execute: killer)
        let result = await process.finish()
        killer.cancel()
        return result
    }

    /// Starts `reel` with `arguments` without waiting for it (to signal it, or watch what it does),
    /// once a slot of `ProcessSlots.shared` is free; `finish()` gives the slot back.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> Running {
        await ProcessSlots.shared.acquire()
        do {
            return try launch(arguments, environment: environment)
        } catch {
            await ProcessSlots.shared.release()
            throw error
        }
    }

    private static func launch(_ arguments: [String], environment: [String: String]) throws -> Running {
        let process = Process()
        process.executableURL = PackagePaths.reelBinary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        var scratch: URL?
        if environment["XDG_CACHE_HOME"] == nil {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-xdg-\(UUID().uuidString)")
            env["XDG_CACHE_HOME"] = folder.path
            scratch = folder
        }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let outData = ReadAll(out.fileHandleForReading)
        let errData = ReadAll(err.fileHandleForReading)
        try process.run()
        return Running(process: process, out: outData, err: errData, scratch: scratch)
    }

    /// A `reel` process started by `start`.
    // @unchecked Sendable: `process` is only asked to wait, terminate, or for its state and pid,
    // which Foundation's `Process` guards itself; the pipes' readers hand over through semaphores.
    public struct Running: @unchecked Sendable {
        public let process: Process
        let out: ReadAll
        let err: ReadAll
        let scratch: URL?

        /// The process id (to send it a signal).
        public var pid: Int32 { process.processIdentifier }

        /// Waits, on a thread of its own, for the process to end; returns what it printed and gives
        /// its slot back. Call it once.
        public func finish() async -> Result {
            let result = await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: wait()) }
                thread.name = "reel-process"
                thread.start()
            }
            await ProcessSlots.shared.release()
            return result
        }

        /// Blocks until the process ends; returns what it printed.
        private func wait() -> Result {
            process.waitUntilExit()
            if let scratch { try? FileManager.default.removeItem(at: scratch) }
            return Result(status: process.terminationStatus, stdout: out.wait(), stderr: err.wait())
        }
    }
}

/// Drains a pipe on a thread of its own so a chatty child never blocks on a full pipe.
final class ReadAll: @unchecked Sendable {  // `data` is written by the reader thread before `done` signals
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
        thread.start()
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
