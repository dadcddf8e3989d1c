#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// Answers the requests of one connection, one at a time (NIO's pipelining handler queues the
/// rest): latency, file lookup on the thread pool, Range, paced body writes, injected faults.
final class CDNRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private let connectionID: Int
    private var countedInBill = false
    private var requestHead: HTTPRequestHead?
    private var exchange: Exchange?
    private var inputClosed = false
    /// The client's address: every connection from it shares one link (`ServerCore.pace`).
    private var client = "?"

    init(core: ServerCore, connectionID: Int) {
        self.core = core
        self.connectionID = connectionID
    }

    // MARK: Channel events

    func channelActive(context: ChannelHandlerContext) {
        if core.profile.isOffline {
            context.close(promise: nil)
            return
        }
        countedInBill = true
        client = context.channel.remoteAddress?.ipAddress ?? "?"
        core.ledger.connectionOpened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let exchange {
            let outcome: RequestLogEntry.Outcome = switch exchange.phase {
            case .stalled: .stalled
            case .resetting: .reset
            case .preparing, .streaming: .aborted
            }
            end(exchange, outcome: outcome)
        }
        if countedInBill {
            countedInBill = false
            core.ledger.connectionClosed()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
        case .body:
            break
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            begin(context: context, head: head)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? ChannelEvent, event == .inputClosed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // The client is gone (or half-closed). A body in progress stops at the next chunk
        // boundary, so every byte billed is a byte the client can still read; all else closes now.
        inputClosed = true
        if exchange?.phase != .streaming {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: Answering a request

    private func begin(context: ChannelHandlerContext, head: HTTPRequestHead) {
        if core.profile.isOffline {
            context.close(promise: nil)
            return
        }
        let path = RequestPath(uri: head.uri)
        let exchange = Exchange(head: head, path: path, ticket: core.faults.ticket(path: path.key))
        self.exchange = exchange
        core.ledger.requestStarted(path: path.key)
        core.ledger.labelled(purpose: exchange.purpose, objectType: exchange.objectType)
        let latency = core.latencyMilliseconds()
        guard latency > 0 else {
            lookUp(context: context, exchange: exchange)
            return
        }
        exchange.timer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(latency))) {
            self.lookUp(context: context, exchange: exchange)
        }
    }

    private func lookUp(context: ChannelHandlerContext, exchange: Exchange) {
        guard self.exchange === exchange else { return }
        exchange.timer = nil
        guard exchange.head.method == .GET || exchange.head.method == .HEAD else {
            respond(context: context, exchange: exchange, lookup: nil)
            return
        }
        guard case .components(let components) = exchange.path.verdict else {
            respond(context: context, exchange: exchange, lookup: nil)
            return
        }
        let root = core.root
        core.threadPool.runIfActive(eventLoop: context.eventLoop) {
            ServedFile.open(components: components, root: root)
        }.assumeIsolated().whenComplete { result in
            guard self.exchange === exchange else { return }
            switch result {
            case .success(let lookup):
                self.respond(context: context, exchange: exchange, lookup: lookup)
            case .failure:
                // The thread pool is shutting down: so is the server.
                context.close(promise: nil)
            }
        }
    }

    /// Works out the response (status, headers, body range), applies a status fault, sends the
    /// head, then the body.
    private func respond(context: ChannelHandlerContext, exchange: Exchange, lookup: ServedFile.Lookup?) {
        let head = exchange.head
        var headers = HTTPHeaders()
        headers.add(name: "Accept-Ranges", value: "bytes")
        var status: HTTPResponseStatus
        var bodyLength = 0
        if head.method != .GET && head.method != .HEAD {
            status = .methodNotAllowed
            headers.add(name: "Allow", value: "GET, HEAD")
        } else {
            switch (exchange.path.verdict, lookup) {
            case (.badRequest, _):
                status = .badRequest
            case (.forbidden, _), (_, .forbidden):
                status = .forbidden
            case (_, .notFound), (_, nil):
                status = .notFound
            case (_, .file(let file)):
                status = .ok
                var range = 0..<file.size
                if let header = head.headers.first(name: "range"), let request = ByteRangeRequest(header: header) {
                    switch request.resolve(size: file.size) {
                    case .partial(let partial):
                        status = .partialContent
                        range = partial
                        headers.add(name: "Content-Range", value: "bytes \(partial.lowerBound)-\(partial.upperBound - 1)/\(file.size)")
                    case .unsatisfiable:
                        status = .rangeNotSatisfiable
                        range = 0..<0
                        headers.add(name: "Content-Range", value: "bytes */\(file.size)")
                    }
                }
                if status != .rangeNotSatisfiable {
                    headers.add(name: "Content-Type", value: ContentType.forPath(exchange.path.key))
                    exchange.file = file
                    exchange.bodyOffset = range.lowerBound
                    bodyLength = range.count
                }
            }
        }

        let sendsBody = head.method == .GET && exchange.file != nil
        switch exchange.ticket.fault(bodyLength: sendsBody ? bodyLength : 0) {
        case .status(let code)?:
            exchange.fault = .status(code)
            core.ledger.faultInjected(path: exchange.path.key, kind: .status)
            status = HTTPResponseStatus(statusCode: code)
            headers = HTTPHeaders()
            exchange.file = nil
            bodyLength = 0
        case .reset(let after)? where sendsBody:
            exchange.fault = .reset(afterBytes: min(max(0, after), bodyLength))
        case .stall(let after)? where sendsBody:
            exchange.fault = .stall(afterBytes: min(max(0, after), bodyLength))
        default:
            break
        }

        headers.add(name: "Content-Length", value: String(bodyLength))
        let keepAlive = head.isKeepAlive && !inputClosed
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if head.version.major == 1 && head.version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        exchange.status = Int(status.code)
        exchange.bodyLength = head.method == .GET ? bodyLength : 0
        exchange.sendLimit = switch exchange.fault {
        case .reset(let after)?, .stall(let after)?: after
        default: exchange.bodyLength
        }
        exchange.phase = .streaming
        core.ledger.responded(path: exchange.path.key, status: exchange.status!)
        // Flushed at once: the head reaches the client after the latency alone, as on a real
        // network, not after the first paced chunk.
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                              promise: nil)
        streamNext(context: context, exchange: exchange)
    }

    /// Sends the next chunk of the body, paced by the bandwidth limit, or ends the response.
    private func streamNext(context: ChannelHandlerContext, exchange: Exchange) {
        guard self.exchange === exchange else { return }
        let remaining = exchange.sendLimit - exchange.sent
        guard remaining > 0 else {
            reachedSendLimit(context: context, exchange: exchange)
            return
        }
        if inputClosed {
            context.close(promise: nil)
            return
        }
        guard let file = exchange.file else {
            context.close(promise: nil)
            return
        }
        let count = min(remaining, Self.chunkSize(bytesPerSecond: core.bytesPerSecond()))
        let offset = exchange.bodyOffset + exchange.sent
        core.threadPool.runIfActive(eventLoop: context.eventLoop) {
            try file.read(offset: offset, count: count)
        }.assumeIsolated().whenComplete { result in
            guard self.exchange === exchange else { return }
            guard case .success(let chunk) = result, chunk.readableBytes == count else {
                // Read failed or the file shrank: the promised Content-Length cannot be kept.
                context.close(promise: nil)
                return
            }
            self.pace(context: context, exchange: exchange, chunk: chunk)
        }
    }

    /// Waits until the client's link has carried `chunk`, then writes it.
    private func pace(context: ChannelHandlerContext, exchange: Exchange, chunk: ByteBuffer) {
        let wait = core.pace(chunk.readableBytes, client: client)
        if wait > 0 {
            exchange.timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(min(wait, UInt64(Int64.max))))) {
                exchange.timer = nil
                self.write(context: context, exchange: exchange, chunk: chunk)
            }
            return
        }
        write(context: context, exchange: exchange, chunk: chunk)
    }

    /// Writes one chunk, then the next once this write completed. The bytes are billed as the
    /// write is issued and taken back if it fails: the bill never trails what a client already
    /// holds, and once the response is over it counts exactly the writes that completed.
    private func write(context: ChannelHandlerContext, exchange: Exchange, chunk: ByteBuffer) {
        guard self.exchange === exchange else { return }
        let count = chunk.readableBytes
        let (path, purpose, objectType) = (exchange.path.key, exchange.purpose, exchange.objectType)
        let ledger = core.ledger
        ledger.bodyBytesSent(path: path, count: count, purpose: purpose, objectType: objectType)
        exchange.writeInFlight = true
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk)))).assumeIsolated().whenComplete { result in
            exchange.writeInFlight = false
            switch result {
            case .success: exchange.sent += count
            case .failure: ledger.bodyBytesSent(path: path, count: -count, purpose: purpose, objectType: objectType)
            }
            if let outcome = exchange.outcome {
                // The connection closed while this write was pending: now the bill is settled.
                self.finish(exchange, outcome: outcome)
            } else if case .success = result {
                self.streamNext(context: context, exchange: exchange)
            }
        }
    }

    /// The body is sent up to its limit: end the response, or strike with the injected fault.
    private func reachedSendLimit(context: ChannelHandlerContext, exchange: Exchange) {
        switch exchange.fault {
        case .reset?:
            exchange.phase = .resetting
            core.ledger.faultInjected(path: exchange.path.key, kind: .reset)
            context.flush()
            resetWhenDrained(context: context, exchange: exchange, deadline: .now() + Self.drainTimeout)
        case .stall?:
            exchange.phase = .stalled
            core.ledger.faultInjected(path: exchange.path.key, kind: .stall)
            context.flush()
            if inputClosed { context.close(promise: nil) }
        case .status?, nil:
            // The exchange is over before `.end` is written: the pipelining handler delivers the
            // next queued request from inside that write.
            end(exchange, outcome: .complete)
            let closeAfter = !exchange.head.isKeepAlive || inputClosed
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if closeAfter { context.close(promise: nil) }
            }
        }
    }

    /// Ends the exchange: nothing more is sent for it. It is billed as over and logged now, or,
    /// when a body write is still pending, once that write has settled.
    private func end(_ exchange: Exchange, outcome: RequestLogEntry.Outcome) {
        guard self.exchange === exchange else { return }
        self.exchange = nil
        exchange.outcome = outcome
        exchange.timer?.cancel()
        exchange.timer = nil
        exchange.file = nil
        if !exchange.writeInFlight {
            finish(exchange, outcome: outcome)
        }
    }

    /// Bills the request as over and logs it.
    private func finish(_ exchange: Exchange, outcome: RequestLogEntry.Outcome) {
        core.ledger.requestFinished(path: exchange.path.key)
        core.requestLog?(exchange.logEntry(connectionID: connectionID, outcome: outcome))
    }

    /// Resets the connection once the bytes already written have reached the client's kernel:
    /// a reset discards what the send queue still holds, and those bytes are billed. If the
    /// client does not read for `drainTimeout`, resets anyway and takes the unsent bytes off
    /// the bill.
    private func resetWhenDrained(context: ChannelHandlerContext, exchange: Exchange, deadline: NIODeadline) {
        guard let probe = SendQueue.read(context.channel) else {
            Self.resetConnection(context.channel)
            return
        }
        probe.assumeIsolated().whenComplete { result in
            guard self.exchange === exchange else { return }
            guard case .success(let queue) = result, !queue.isDrained else {
                Self.resetConnection(context.channel)
                return
            }
            guard NIODeadline.now() < deadline else {
                let unsent = min(Int(queue.notSentBytes), exchange.sent)
                self.core.ledger.bodyBytesSent(path: exchange.path.key, count: -unsent, purpose: exchange.purpose,
                                               objectType: exchange.objectType)
                exchange.sent -= unsent
                Self.resetConnection(context.channel)
                return
            }
            exchange.timer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(1)) {
                exchange.timer = nil
                self.resetWhenDrained(context: context, exchange: exchange, deadline: deadline)
            }
        }
    }

    /// How long a reset waits for the client to take the bytes already written.
    static let drainTimeout = TimeAmount.milliseconds(500)

    /// Closes with SO_LINGER 0, so the kernel sends RST and the client sees ECONNRESET.
    private static func resetConnection(_ channel: any Channel) {
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// Body chunk size: 64 KiB unthrottled; about 20 ms of data (1 to 64 KiB) when throttled, so
    /// pacing stays smooth.
    static func chunkSize(bytesPerSecond: Double?) -> Int {
        guard let bytesPerSecond else { return 64 * 1024 }
        return min(64 * 1024, max(1024, Int(bytesPerSecond * 0.02)))
    }
}
