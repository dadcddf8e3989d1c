#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Foundation
import ReelCore

/// Ctrl-C (SIGINT) and SIGTERM during a long run, handled as ffmpeg does: the first one stops the
/// run cleanly (`stop` is cancelled; the command then prints the summary of what ran, writes
/// its files and exits 130, or 143 for SIGTERM); a second one ends the process at once.
final class Interruption: Sendable {
    /// Cancelled by the first signal.
    let stop = Cancellation()
    private let received = Locked<Int32?>(nil)
    private let watcher: SignalWatcher

    init() {
        let (stop, received) = (self.stop, self.received)
        watcher = SignalWatcher([SIGINT, SIGTERM]) { number in
            let first = received.withLock { received -> Bool in
                defer { received = received ?? number }
                return received == nil
            }
            guard first else { return }
            // The next one takes the default action: a second Ctrl-C quits at once.
            Glibc.signal(SIGINT, SIG_DFL)
            Glibc.signal(SIGTERM, SIG_DFL)
            FileHandle.standardError.write(Data("\nreel: stopping; the summary of what ran follows (Ctrl-C again to quit at once)\n".utf8))
            stop.cancel()
        }
    }

    /// The signal that stopped the run, or nil.
    var signal: Int32? { received.withLock { $0 } }

    /// Ends the command with 130 (SIGINT) or 143 (SIGTERM) when a signal stopped it; call it once
    /// what ran is printed and written.
    func exitIfInterrupted() throws {
        guard let signal else { return }
        throw ExitCode(signal == SIGTERM ? ExitStatus.terminated : ExitStatus.interrupted)
    }
}

/// Hears some signals through Dispatch signal sources (their default action turned off with
/// `signal(_, SIG_IGN)` so the process lives on), calling `handler` and waking `wait()`.
final class SignalWatcher: Sendable {
    // Dispatch sources are thread-safe; they are only cancelled in deinit.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init(_ numbers: [Int32], handler: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                handler(number)
                continuation.yield(number)
            }
            source.resume()
            return source
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    /// Returns when one of the signals arrives.
    func wait() async {
        for await _ in stream { return }
    }
}
