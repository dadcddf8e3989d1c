import NIOCore
import ReelCore

/// The server's open connections, so that shutdown and the offline profile can close them all
/// (stalled ones included). Thread-safe through one `Locked`.
final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var isShutDown = false
    }

    private let state = Locked(State())

    /// Registers a new connection; false once the server is shutting down.
    func add(_ channel: any Channel) -> Bool {
        let added = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
        if added {
            channel.closeFuture.whenComplete { [weak self] _ in
                self?.state.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
            }
        }
        return added
    }

    /// Closes every open connection now.
    func closeAll() {
        for channel in state.withLock({ Array($0.channels.values) }) {
            channel.close(promise: nil)
        }
    }

    /// Refuses new connections from now on, closes the open ones, and returns when they are closed.
    func shutDown() async {
        let channels = state.withLock { state in
            state.isShutDown = true
            return Array(state.channels.values)
        }
        for channel in channels {
            channel.close(promise: nil)
            try? await channel.closeFuture.get()
        }
    }
}
