#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ReelCore
import Synchronization

/// How a raw read ended.
enum ReadOutcome: Error, Equatable, Sendable {
    /// The whole response (head and Content-Length bytes of body) arrived.
    case complete
    /// The read stopped where the caller asked (`stopAfterBodyBytes`).
    case stoppedEarly
    /// The server closed the connection (EOF) first.
    case closed
    /// The connection was reset (ECONNRESET).
    case reset
    /// No byte arrived within the idle timeout.
    case timedOut
    /// Another socket error (errno).
    case failed(Int32)
}

/// One response as read off the socket, possibly partial.
struct RawResponse: Sendable {
    var status: Int?
    /// Header names lowercased.
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var outcome: ReadOutcome
    /// From just before the request was sent to the first byte of the response.
    var timeToFirstByte: Duration?
}

/// A blocking TCP client for tests: every call runs on a thread of its own (never on the
/// cooperative pool), so a test can read partial bodies, see resets and time out on stalls.
final class RawConnection: Sendable {
    let descriptor: Int32
    /// Bytes read past the end of the last response (keep-alive, pipelining).
    private let leftover = Locked<[UInt8]>([])
    private let isClosed = Atomic<Bool>(false)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Connects to 127.0.0.1:`port`. The C functions underneath are `socket` and `connect`.
    static func open(port: Int) async throws -> RawConnection {
        try await BlockingPool.shared.run { try openBlocking(port: port) }
    }

    /// `open(port:)` on the calling thread, for a sequence of requests run on one thread.
    @available(*, noasync, message: "blocks: await open(port:) instead")
    static func openBlocking(port: Int) throws -> RawConnection {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            _ = Glibc.close(descriptor)
            throw POSIXError(error)
        }
        return RawConnection(descriptor: descriptor)
    }

    /// Sends a request for `target` and reads its response; `thenShutdownWrite` half-closes right
    /// after, on the same thread (no wait for the cooperative pool in between).
    func request(_ target: String, method: String = "GET", headers: [String: String] = [:],
                 idleTimeout: Duration = .seconds(10), stopAfterBodyBytes: Int? = nil,
                 thenShutdownWrite: Bool = false) async -> RawResponse {
        await BlockingPool.shared.runToEnd {
            let response = self.requestBlocking(target, method: method, headers: headers, idleTimeout: idleTimeout,
                                                stopAfterBodyBytes: stopAfterBodyBytes)
            if thenShutdownWrite { self.shutdownWrite() }
            return response
        }
    }

    /// `request` on the calling thread, for a sequence of requests run on one thread.
    @available(*, noasync, message: "blocks: await request(_:) instead")
    func requestBlocking(_ target: String, method: String = "GET", headers: [String: String] = [:],
                         idleTimeout: Duration = .seconds(10), stopAfterBodyBytes: Int? = nil) -> RawResponse {
        let text = Self.requestText(target, method: method, headers: headers)
        let start = ContinuousClock.now
        guard sendBlocking(text) else { return RawResponse(outcome: .reset) }
        return readResponseBlocking(method: method, idleTimeout: idleTimeout, stopAfterBodyBytes: stopAfterBodyBytes, start: start)
    }

    /// Sends raw bytes (several requests at once, for pipelining).
    func send(_ text: String) async -> Bool {
        await BlockingPool.shared.runToEnd { self.sendBlocking(text) }
    }

    /// Reads one response to a request already sent.
    func readResponse(method: String = "GET", idleTimeout: Duration = .seconds(10),
                      stopAfterBodyBytes: Int? = nil) async -> RawResponse {
        await BlockingPool.shared.runToEnd {
            self.readResponseBlocking(method: method, idleTimeout: idleTimeout,
                                      stopAfterBodyBytes: stopAfterBodyBytes, start: .now)
        }
    }

    /// Reads everything until the server closes, resets or goes quiet.
    func readToEnd(idleTimeout: Duration = .seconds(10)) async -> (bytes: [UInt8], outcome: ReadOutcome) {
        await BlockingPool.shared.runToEnd { self.readToEndBlocking(idleTimeout: idleTimeout) }
    }

    /// `readToEnd` on the calling thread, for a sequence of requests run on one thread.
    @available(*, noasync, message: "blocks: await readToEnd() instead")
    func readToEndBlocking(idleTimeout: Duration = .seconds(10)) -> (bytes: [UInt8], outcome: ReadOutcome) {
        var bytes = leftover.withLock { buffer in
            defer { buffer.removeAll() }
            return buffer
        }
        while true {
            switch receive(idleTimeout: idleTimeout) {
            case .success(let chunk): bytes += chunk
            case .failure(let outcome): return (bytes, outcome)
            }
        }
    }

    /// Half-closes: the server sees end of input, the client can still read.
    func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    func close() {
        guard !isClosed.exchange(true, ordering: .relaxed) else { return }
        _ = Glibc.close(descriptor)
    }

    static func requestText(_ target: String, method: String = "GET", headers: [String: String] = [:]) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        return text + "\r\n"
    }

    // MARK: Blocking parts (dedicated threads only)

    private func sendBlocking(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            sent += count
        }
        return true
    }

    private func receive(idleTimeout: Duration) -> Result<[UInt8], ReadOutcome> {
        let (seconds, attoseconds) = idleTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .success(Array(buffer[..<count])) }
            if count == 0 { return .failure(.closed) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .failure(.timedOut)
            case ECONNRESET: return .failure(.reset)
            case let other: return .failure(.failed(other))
            }
        }
    }

    private func readResponseBlocking(method: String, idleTimeout: Duration, stopAfterBodyBytes: Int?,
                                      start: ContinuousClock.Instant) -> RawResponse {
        var buffer = leftover.withLock { buffer in
            defer { buffer.removeAll() }
            return buffer
        }
        var response = RawResponse(outcome: .complete)
        if !buffer.isEmpty { response.timeToFirstByte = .zero }
        // The head.
        var headEnd: Int?
        while headEnd == nil {
            if let end = Self.find([13, 10, 13, 10], in: buffer) {
                headEnd = end
                break
            }
            switch receive(idleTimeout: idleTimeout) {
            case .success(let chunk):
                if response.timeToFirstByte == nil { response.timeToFirstByte = ContinuousClock.now - start }
                buffer += chunk
            case .failure(let outcome):
                response.outcome = outcome
                return response
            }
        }
        let headText = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        response.status = statusLine.count > 1 ? Int(statusLine[1]) : nil
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            response.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        buffer.removeFirst(headEnd! + 4)
        // The body.
        let length = method == "HEAD" ? 0 : Int(response.headers["content-length"] ?? "0") ?? 0
        let wanted = min(length, stopAfterBodyBytes ?? length)
        while buffer.count < wanted {
            switch receive(idleTimeout: idleTimeout) {
            case .success(let chunk):
                buffer += chunk
            case .failure(let outcome):
                response.body = buffer
                response.outcome = outcome
                return response
            }
        }
        response.body = Array(buffer[..<wanted])
        leftover.withLock { $0 = Array(buffer[wanted...]) }
        response.outcome = wanted < length ? .stoppedEarly : .complete
        return response
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

extension POSIXError {
    init(_ code: Int32) {
        self.init(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}
