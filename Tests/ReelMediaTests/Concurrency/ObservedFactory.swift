import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Resumes waiters once a data source opened a URL ending in `path`.
final class OpenSignal: Sendable {
    let path: String
    private let state = Locked<(opened: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(path: String) { self.path = path }

    func opened(_ url: URL) {
        guard url.path.hasSuffix(path) else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.opened = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.opened { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Real data sources that tell an `OpenSignal` what they open (to learn a read has begun).
struct ObservedFactory: DataSourceFactory {
    let base: URLDataSourceFactory
    let signal: OpenSignal

    func makeDataSource(cancellation: Cancellation) -> any DataSource {
        ObservedSource(base: base.makeDataSource(cancellation: cancellation), signal: signal)
    }
}

final class ObservedSource: DataSource {
    let base: any DataSource
    let signal: OpenSignal

    init(base: any DataSource, signal: OpenSignal) {
        self.base = base
        self.signal = signal
    }

    func open(_ spec: DataSpec) throws -> Int64? {
        let length = try base.open(spec)
        signal.opened(spec.url)
        return length
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try base.read(into: buffer) }
    func close() { base.close() }
    var metrics: TransferMetrics { base.metrics }
}

extension TransferEngine {
    /// Shuts the engine down from async code (on a pool thread: `shutdown` blocks).
    func shutdownAsync() {
        BlockingPool.shared.start { self.shutdown() }
    }
}
