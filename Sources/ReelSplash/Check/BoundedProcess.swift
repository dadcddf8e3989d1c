import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end with its standard input given and its output collected, killed
/// (SIGKILL) when it outlives `seconds` or the job is cancelled; what it used is read from
/// `wait4`. The input goes through a socket written with `MSG_NOSIGNAL`, so a child that dies
/// before reading it all costs an `EPIPE`, never a SIGPIPE here. Blocking: call it on a
/// `BlockingPool` thread.
struct BoundedProcess {
    enum Exit: Sendable, Hashable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed for outliving the time allowed.
        case timedOut
        /// Killed because the job was cancelled.
        case cancelled
    }

    struct Outcome: Sendable {
        var exit: Exit
        var stdout: [UInt8]
        /// The last `stderrKept` bytes of standard error.
        var stderr: [UInt8]
        var usage: SplashCheckUsage
    }

    var executable: String
    var arguments: [String]
    var environment: [String: String] = [:]
    var seconds: Double
    var maxOutputBytes = 4 << 20
    var stderrKept = 4096

    func run(input: [UInt8], cancellation: Cancellation?) throws -> Outcome {
        // Sockets rather than pipes: made close-on-exec atomically, so a child another thread
        // starts meanwhile never holds one open.
        var inputPair: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &inputPair) == 0 else { throw failure("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &outPipe) == 0 else { closeAll(inputPair); throw failure("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &errPipe) == 0 else { closeAll(inputPair + outPipe); throw failure("socketpair") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and every signal at its default (this process
        // may ignore SIGPIPE or block others for its own threads).
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let clock = ContinuousClock()
        let started = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        closeAll([inputPair[1], outPipe[1], errPipe[1]])
        guard spawned == 0 else {
            closeAll([inputPair[0], outPipe[0], errPipe[0]])
            throw ReelError(.internalFailure, "cannot start '\(executable)': \(String(cString: strerror(spawned)))")
        }
        let child = pid
        let killOnCancel = cancellation?.onCancel { kill(child, SIGKILL) }
        defer { if let killOnCancel { cancellation?.removeHandler(killOnCancel) } }

        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var written = 0
        var inputOpen = true, outOpen = true, errOpen = true
        if input.isEmpty {
            shutdown(inputPair[0], Int32(SHUT_WR))
        }
        let deadline = started.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))
        var killedFor: Exit?
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while outOpen || errOpen {
            if cancellation?.isCancelled == true, killedFor == nil {
                kill(pid, SIGKILL)
                killedFor = .cancelled
            }
            let left = clock.now.duration(to: deadline)
            if left <= .zero, killedFor == nil {
                kill(pid, SIGKILL)
                killedFor = .timedOut
            }
            var fds: [pollfd] = []
            if outOpen { fds.append(pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0)) }
            if errOpen { fds.append(pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)) }
            if inputOpen && written < input.count { fds.append(pollfd(fd: inputPair[0], events: Int16(POLLOUT), revents: 0)) }
            // After a kill, the pipes close as the child dies.
            let wait = killedFor != nil ? 1000 : max(1, min(1000, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputPair[0] {
                    // Never blocking: a child that reads nothing must not hold this thread past its deadline.
                    let count = input.withUnsafeBytes {
                        send(inputPair[0], $0.baseAddress! + written, input.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN && errno != EINTR { inputOpen = false }
                    if written == input.count || !inputOpen {
                        shutdown(inputPair[0], Int32(SHUT_WR))
                        inputOpen = false
                    }
                } else {
                    let count = read(entry.fd, &chunk, chunk.count)
                    if count > 0 {
                        if entry.fd == outPipe[0] {
                            if stdout.count < maxOutputBytes { stdout += chunk[0..<min(count, maxOutputBytes - stdout.count)] }
                        } else {
                            stderr += chunk[0..<count]
                            if stderr.count > stderrKept { stderr.removeFirst(stderr.count - stderrKept) }
                        }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        if entry.fd == outPipe[0] { outOpen = false } else { errOpen = false }
                    }
                }
            }
        }
        closeAll([inputPair[0], outPipe[0], errPipe[0]])
        // Both pipes closed: the child is exiting (or closed them and runs on, until the deadline).
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let reaped = wait4(pid, &status, killedFor == nil ? WNOHANG : 0, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw failure("wait4") }
            if killedFor == nil {
                if clock.now >= deadline {
                    kill(pid, SIGKILL)
                    killedFor = .timedOut
                } else {
                    var nothing = pollfd(fd: -1, events: 0, revents: 0)
                    _ = poll(&nothing, 1, 10)
                }
            }
        }
        let elapsed = started.duration(to: clock.now).components
        let used = SplashCheckUsage(
            seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18,
            cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6,
            maxRSSBytes: usage.ru_maxrss * 1024)
        let exit: Exit
        if let killedFor, (status & 0x7F) == SIGKILL {
            exit = killedFor
        } else if status & 0x7F == 0 {
            exit = .exited((status >> 8) & 0xFF)
        } else {
            exit = .signaled(status & 0x7F)
        }
        return Outcome(exit: exit, stdout: stdout, stderr: stderr, usage: used)
    }

    private func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { close(fd) }
    }

    private func failure(_ call: String) -> ReelError {
        ReelError(.internalFailure, "cannot run '\(executable)': \(call) failed: \(String(cString: strerror(errno)))")
    }
}
