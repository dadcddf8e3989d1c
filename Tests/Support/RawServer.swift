import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// A hostile server on 127.0.0.1 (port 0) for tests: it answers each request with whatever bytes
/// `reply` returns for its path (a reply that is not HTTP, a broken status line, an endless or
/// stalled body), where the CDN simulator only speaks well-formed HTTP. One connection at a time,
/// closed after each reply; `stop()` ends it.
package final class RawServer: Sendable {
    /// What to send for a request.
    package enum Reply: Sendable {
        /// These bytes, then close.
        case bytes([UInt8])
        /// These bytes, then nothing more until the client leaves or the server stops.
        case stall([UInt8])
        /// These bytes, then the same chunk again and again until the client leaves.
        case endless(head: [UInt8], chunk: [UInt8])
    }

    package let port: Int
    private let listener: Int32
    private let stopped = Locked(false)
    /// Paths asked for, in order.
    package let requests = Watched<[String]>([])

    package init(reply: @escaping @Sendable (String) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let requests = requests, stopped = stopped
        DedicatedThread.start(name: "reel-test-raw-server") {
            Self.serve(fd, reply: reply, requests: requests, stopped: stopped)
        }
    }

    /// The URL of `path` on this server.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    /// Stops accepting; a connection being served ends at its next write.
    package func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private static func serve(_ listener: Int32, reply: @Sendable (String) -> Reply, requests: Watched<[String]>,
                              stopped: Locked<Bool>) {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var off = linger(l_onoff: 0, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &off, socklen_t(MemoryLayout<linger>.size))
            let path = readRequestPath(client)
            requests.update { $0.append(path) }
            switch reply(path) {
            case .bytes(let bytes):
                _ = send(client, bytes)
            case .stall(let bytes):
                _ = send(client, bytes)
                // Wait for the client to leave (a read of 0 or an error), or the server to stop.
                var buffer = [UInt8](repeating: 0, count: 1024)
                while !stopped.withLock({ $0 }) {
                    var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, 100) > 0 && recv(client, &buffer, buffer.count, 0) <= 0 { break }
                }
            case .endless(let head, let chunk):
                guard send(client, head) else { break }
                while !stopped.withLock({ $0 }) && send(client, chunk) {}
            }
            close(client)
        }
    }

    /// Reads the request head; its path without the leading slash.
    private static func readRequestPath(_ client: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 65_536 {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            data += buffer[..<count]
            if data.count >= 4, data.suffix(4) == [13, 10, 13, 10] { break }
        }
        let line = String(decoding: data.prefix { $0 != 13 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? String(parts[1].dropFirst()) : ""
    }

    /// Sends all of `bytes`; false when the client is gone.
    private static func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// An HTTP/1.1 response with a Content-Length, `headers` added.
    package static func response(status: String = "200 OK", headers: [String] = [], body: [UInt8]) -> [UInt8] {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        return Array(head.utf8) + body
    }
}
