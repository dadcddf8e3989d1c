import ReelCore

/// Decides the prefetch gate from what plays: closed while a play waits for its first frame
/// (`prefetch.pauseWhileStarting`), only the cards about to play while a playing video holds less
/// than `prefetch.minPlayingBufferMs`, else open. Pure: play events and buffer reports in, the
/// gate out when it changes; the feed session tells the prefetcher.
public struct PlaybackYield: Sendable {
    public var minPlayingBufferMs: Int
    public var pausesWhileStarting: Bool
    /// Players whose play waits for its first frame.
    private var starting: Set<Int> = []
    /// Media each playing player holds, milliseconds (0 until its first report).
    private var buffers: [Int: Int] = [:]
    public private(set) var gate = PrefetchGate.open

    public init(minPlayingBufferMs: Int = 2000, pausesWhileStarting: Bool = true) {
        self.minPlayingBufferMs = max(0, minPlayingBufferMs)
        self.pausesWhileStarting = pausesWhileStarting
    }

    /// The yield `prefetch.*` describes.
    public init(_ config: ReelConfig) {
        self.init(minPlayingBufferMs: config.prefetch.minPlayingBufferMs, pausesWhileStarting: config.prefetch.pauseWhileStarting)
    }

    /// A player was told to play; it waits for its first frame unless `prepared` (it shows a
    /// held frame at once).
    public mutating func playStarted(_ player: Int, waitsForFirstFrame: Bool = true) -> PrefetchGate? {
        if waitsForFirstFrame { starting.insert(player) }
        buffers[player] = buffers[player] ?? 0
        return update()
    }

    /// The player showed its first frame.
    public mutating func firstFrame(_ player: Int) -> PrefetchGate? {
        starting.remove(player)
        return update()
    }

    /// The player stopped playing (paused, ended, unmounted, failed).
    public mutating func playStopped(_ player: Int) -> PrefetchGate? {
        starting.remove(player)
        buffers[player] = nil
        return update()
    }

    /// How much media a playing player holds now.
    public mutating func buffered(_ player: Int, ms: Int) -> PrefetchGate? {
        guard buffers[player] != nil else { return nil }
        buffers[player] = ms
        return update()
    }

    private mutating func update() -> PrefetchGate? {
        let new: PrefetchGate
        if pausesWhileStarting && !starting.isEmpty {
            new = .closed
        } else if minPlayingBufferMs > 0, buffers.values.contains(where: { $0 < minPlayingBufferMs }) {
            new = .urgentOnly
        } else {
            new = .open
        }
        guard new != gate else { return nil }
        gate = new
        return new
    }
}
