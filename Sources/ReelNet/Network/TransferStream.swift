import DequeModule
import Foundation
import ReelCore

/// The bytes of one transfer on their way from the transfer thread to one blocking reader.
/// The transfer thread appends; the reader waits for the response, then reads as bytes arrive, so
/// a demuxer sees the first bytes of a segment long before its last ones.
// @unchecked Sendable: every mutable field is read and written only while holding `condition`.
final class TransferStream: @unchecked Sendable {
    private enum Phase {
        case waitingForResponse
        case streaming
        case finished
        case failed(ReelError)
    }

    private let condition = NSCondition()
    private var phase = Phase.waitingForResponse
    private var chunks = Deque<[UInt8]>()
    private var headIndex = 0
    private var buffered = 0
    private var pausedForBackPressure = false
    private var contentLength: Int64?
    private var currentMetrics: TransferMetrics
    private let highWater: Int
    private let lowWater: Int
    /// Called (outside the lock) when a paused transfer has drained below the low-water mark.
    var onDrained: (@Sendable () -> Void)?

    init(metrics: TransferMetrics, highWater: Int, lowWater: Int) {
        self.currentMetrics = metrics
        self.highWater = highWater
        self.lowWater = lowWater
    }

    // MARK: Transfer-thread side

    /// Offers body bytes; returns false (nothing taken) when the reader is too far behind,
    /// in which case the transfer pauses until `onDrained` fires.
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if case .failed = phase { return true }  // reader is gone; swallow so curl can finish
        if buffered >= highWater {
            pausedForBackPressure = true
            return false
        }
        chunks.append(Array(bytes))
        buffered += bytes.count
        currentMetrics.bytes += Int64(bytes.count)
        if case .waitingForResponse = phase { phase = .streaming }
        condition.broadcast()
        return true
    }

    /// The response has started: status and length are known.
    func responseStarted(contentLength: Int64?, update: (inout TransferMetrics) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        if self.contentLength == nil { self.contentLength = contentLength }
        update(&currentMetrics)
        if case .waitingForResponse = phase { phase = .streaming }
        condition.broadcast()
    }

    func updateMetrics(_ update: (inout TransferMetrics) -> Void) {
        condition.lock()
        update(&currentMetrics)
        condition.unlock()
    }

    func finish() {
        condition.lock()
        defer { condition.unlock() }
        switch phase {
        case .waitingForResponse, .streaming: phase = .finished
        case .finished, .failed: break
        }
        condition.broadcast()
    }

    func fail(_ error: ReelError) {
        condition.lock()
        defer { condition.unlock() }
        switch phase {
        case .waitingForResponse, .streaming: phase = .failed(error)
        case .finished, .failed: break
        }
        condition.broadcast()
    }

    /// Body bytes delivered so far (the resume point of a retry).
    var deliveredBytes: Int64 {
        condition.lock()
        defer { condition.unlock() }
        return currentMetrics.bytes
    }

    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        switch phase {
        case .finished, .failed: return true
        case .waitingForResponse, .streaming: return false
        }
    }

    // MARK: Reader side

    /// Blocks until the response has started (or failed); returns the content length if known.
    func waitForResponse() throws -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        while case .waitingForResponse = phase { condition.wait() }
        if case .failed(let error) = phase, chunks.isEmpty { throw error }
        return contentLength
    }

    /// Blocks until bytes are available (with `wait` false: returns 0 when none is there yet);
    /// copies up to `buffer.count`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, wait: Bool = true) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        condition.lock()
        var copied = 0
        while true {
            if !chunks.isEmpty { break }
            switch phase {
            case .finished:
                condition.unlock()
                return 0
            case .failed(let error):
                condition.unlock()
                throw error
            case .waitingForResponse, .streaming:
                guard wait else {
                    condition.unlock()
                    return 0
                }
                condition.wait()
            }
        }
        while copied < buffer.count, let head = chunks.first {
            let available = head.count - headIndex
            let count = min(available, buffer.count - copied)
            head.withUnsafeBytes { source in
                let from = UnsafeRawBufferPointer(rebasing: source[headIndex..<(headIndex + count)])
                UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)]).copyMemory(from: from)
            }
            copied += count
            headIndex += count
            if headIndex == head.count {
                chunks.removeFirst()
                headIndex = 0
            }
        }
        buffered -= copied
        var resume: (@Sendable () -> Void)?
        if pausedForBackPressure && buffered <= lowWater {
            pausedForBackPressure = false
            resume = onDrained
        }
        condition.unlock()
        resume?()
        return copied
    }

    var metrics: TransferMetrics {
        condition.lock()
        defer { condition.unlock() }
        return currentMetrics
    }
}
