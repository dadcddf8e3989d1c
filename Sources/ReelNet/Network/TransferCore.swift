import CCurl
import CReelShims
import Foundation
import Logging
import ReelCore
import ReelManifest

/// The transfer thread behind a `TransferEngine`: libcurl's multi interface, the transfers and
/// the connection pool. The thread holds the core until it exits, so the core outlives every
/// callback; the engine asks it to stop when the last user lets go.
// @unchecked Sendable: `multi` and `transfers` are touched only on the transfer thread
// (`curl_multi_wakeup`, documented thread-safe, is the exception: it is called under the `inbox`
// lock while the inbox is open, and the thread frees `multi` only after closing it); commands
// cross threads through the `inbox` lock.
final class TransferCore: @unchecked Sendable {
    private enum Command {
        case add(DataSpec, TransferStream)
        case cancel(ObjectIdentifier)
        case resume(ObjectIdentifier)
        case stop
    }

    /// Commands waiting for the thread; once `closed`, nothing more is accepted.
    private struct Inbox {
        var commands: [Command] = []
        var closed = false
    }

    let options: NetworkOptions
    /// Fed a sample whenever a metered transfer stops or pauses (`ThroughputSampler`).
    let meter: BandwidthMeter
    private var sampler = ThroughputSampler()
    /// The sampler's clock origin.
    private let began = ContinuousClock.now
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    private let stats = Locked(TransferEngine.Statistics())
    private let stopped = Locked(false)
    private var transfers: [ObjectIdentifier: Transfer] = [:]
    /// Writes CMCD on every request, when `network.cmcd.enabled`.
    private let cmcd: CMCDEncoder?
    private var idleHandles: [UnsafeMutableRawPointer] = []
    private let finished = DispatchSemaphore(value: 0)

    init(options: NetworkOptions, meter: BandwidthMeter) {
        CurlGlobal.initialize()
        self.options = options
        self.meter = meter
        cmcd = CMCDEncoder(options.cmcd)
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        _ = reel_shim_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = reel_shim_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
        _ = reel_shim_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(16, options.maxConnectionsPerHost * 4))
        // The closure holds the core strongly: it lives until its thread returns from `run`.
        DedicatedThread.start(name: "reel.transfer", stackSize: 1 << 20) { self.run() }
    }

    /// Starts a GET for `spec`; its bytes arrive in the returned stream.
    func start(_ spec: DataSpec) -> TransferStream {
        var metrics = TransferMetrics(url: spec.url.absoluteString, kind: spec.kind)
        metrics.attempts = 0
        let stream = TransferStream(
            metrics: metrics, highWater: options.readBufferHighWater, lowWater: options.readBufferLowWater)
        let id = ObjectIdentifier(stream)
        stream.onDrained = { [weak self] in self?.send(.resume(id)) }
        if !send(.add(spec, stream)) {
            stream.fail(ReelError(.cancelled, "transfer engine stopped before '\(spec.url.absoluteString)'"))
        }
        return stream
    }

    /// Stops the transfer feeding `stream`; its reader gets a `.cancelled` error.
    func cancel(_ stream: TransferStream) {
        stream.fail(ReelError(.cancelled, "transfer cancelled"))
        send(.cancel(ObjectIdentifier(stream)))
    }

    var statistics: TransferEngine.Statistics { stats.withLock { $0 } }

    /// Asks the thread to cancel every transfer and exit, without waiting (once, however often
    /// it is called).
    func requestStop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { send(.stop) }
    }

    /// Cancels every transfer, stops the thread and closes its connections. Blocks until that
    /// is done, whichever caller asked first.
    @available(*, noasync, message: "blocks until the transfer thread exits")
    func shutdown() {
        requestStop()
        finished.wait()
        finished.signal()  // for the next caller: the thread signals once
    }

    /// Queues a command for the thread; false once the thread has stopped taking commands.
    @discardableResult
    private func send(_ command: Command) -> Bool {
        inbox.withLock { inbox -> Bool in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            // Under the lock: the thread frees `multi` only after closing the inbox under it.
            curl_multi_wakeup(multi)
            return true
        }
    }

    // MARK: Transfer thread

    private func run() {
        var running = true
        while running {
            let pending = inbox.withLock { inbox -> [Command] in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in pending {
                switch command {
                case .add(let spec, let stream): add(spec, stream)
                case .cancel(let id): if let transfer = transfers[id] { remove(transfer, cancelled: true) }
                case .resume(let id): resume(id)
                case .stop: running = false
                }
            }
            if !running { break }
            var stillRunning: Int32 = 0
            _ = curl_multi_perform(multi, &stillRunning)
            collectCompletions()
            let now = ContinuousClock.now
            startDueRetries(now: now)
            checkStalls(now: now)
            var timeout = 0
            _ = curl_multi_timeout(multi, &timeout)
            timeout = (timeout < 0 || timeout > 100) ? 100 : timeout
            if let nextRetry = transfers.values.compactMap(\.retryAt).min() {
                let untilRetry = Int((nextRetry - now).milliseconds.rounded(.up))
                timeout = max(0, min(timeout, untilRetry))
            }
            _ = curl_multi_poll(multi, nil, 0, Int32(timeout), nil)
        }
        // Close the inbox; a transfer added after the last look fails instead of waiting forever.
        let late = inbox.withLock { inbox -> [Command] in
            inbox.closed = true
            return inbox.commands
        }
        for case .add(let spec, let stream) in late {
            stream.fail(ReelError(.cancelled, "transfer engine stopped before '\(spec.url.absoluteString)'"))
        }
        for transfer in Array(transfers.values) { remove(transfer, cancelled: true) }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles.removeAll()
        // Closes the pooled connections now rather than when the last reference goes: a server
        // counting open connections (the simulator's bill) sees the engine leave at shutdown.
        curl_multi_cleanup(multi)
        finished.signal()
    }

    private func add(_ spec: DataSpec, _ stream: TransferStream) {
        let transfer = Transfer(spec: spec, stream: stream, now: .now)
        transfer.engine = self
        transfers[ObjectIdentifier(stream)] = transfer
        stats.withLock { $0.requests += 1 }
        startAttempt(transfer)
    }

    private func startAttempt(_ transfer: Transfer) {
        transfer.retryAt = nil
        transfer.attempts += 1
        transfer.responseSeen = false
        transfer.requestSent = false
        transfer.windowStart = .now
        transfer.windowBytes = 0
        transfer.attemptStartedAt = .now
        stats.withLock { $0.attempts += 1 }
        transfer.stream.updateMetrics { $0.attempts = transfer.attempts }
        let reused = idleHandles.popLast()
        guard let easy = reused ?? curl_easy_init() else {
            finish(transfer, error: ReelError(.internalFailure, "curl_easy_init failed for '\(transfer.spec)'"))
            return
        }
        transfer.easy = easy
        do {
            try configure(easy, for: transfer, fresh: reused == nil)
        } catch let error as ReelError {
            // Not retried: the same options would be refused again.
            finish(transfer, error: error)
            return
        } catch {
            finish(transfer, error: ReelError(.internalFailure, "configuring '\(transfer.spec)' failed: \(error)"))
            return
        }
        let code = curl_multi_add_handle(multi, easy)
        if code != CURLM_OK {
            finish(transfer, error: ReelError(
                .internalFailure, "curl_multi_add_handle failed for '\(transfer.spec)': code \(code.rawValue)"))
        }
    }

    /// Every option of one attempt; throws the first one libcurl refuses. `fresh`: the handle is
    /// new (libcurl takes a receive buffer size only before the handle's first transfer).
    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: Transfer, fresh: Bool) throws {
        let me = Unmanaged.passUnretained(transfer).toOpaque()
        let options = CurlEasyOptions(handle: easy, subject: "'\(transfer.spec.url.absoluteString)'")
        // CMCD's measured throughput: the meter's estimate once it was measured.
        let throughput = cmcd == nil ? nil : { () -> Int? in
            let estimate = meter.snapshot
            return estimate.measured ? estimate.estimateKbps : nil
        }()
        try options.set("CURLOPT_URL", CURLOPT_URL, string: (cmcd?.url(for: transfer.spec, throughputKbps: throughput) ?? transfer.spec.url).absoluteString)
        transfer.freeHeaders()
        for line in cmcd?.headerLines(for: transfer.spec, throughputKbps: throughput) ?? [] {
            transfer.headerList = curl_slist_append(transfer.headerList, line)
        }
        if let list = transfer.headerList { try options.set("CURLOPT_HTTPHEADER", CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(list)) }
        try options.set("CURLOPT_PRIVATE", CURLOPT_PRIVATE, pointer: me)
        try options.set("CURLOPT_WRITEDATA", CURLOPT_WRITEDATA, pointer: me)
        try options.set("CURLOPT_WRITEFUNCTION", CURLOPT_WRITEFUNCTION, callback: transferWriteCallback)
        try options.set("CURLOPT_PROTOCOLS_STR", CURLOPT_PROTOCOLS_STR, string: "http,https")
        try options.set("CURLOPT_REDIR_PROTOCOLS_STR", CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https")
        try options.set("CURLOPT_FOLLOWLOCATION", CURLOPT_FOLLOWLOCATION, long: 1)
        try options.set("CURLOPT_MAXREDIRS", CURLOPT_MAXREDIRS, long: 5)
        try options.set("CURLOPT_FAILONERROR", CURLOPT_FAILONERROR, long: 1)
        try options.set("CURLOPT_NOSIGNAL", CURLOPT_NOSIGNAL, long: 1)
        try options.set("CURLOPT_TCP_NODELAY", CURLOPT_TCP_NODELAY, long: 1)
        try options.set("CURLOPT_TCP_KEEPALIVE", CURLOPT_TCP_KEEPALIVE, long: 1)
        try options.set("CURLOPT_PIPEWAIT", CURLOPT_PIPEWAIT, long: 1)
        if fresh { try options.set("CURLOPT_BUFFERSIZE", CURLOPT_BUFFERSIZE, long: 64 << 10) }
        try options.set("CURLOPT_CONNECTTIMEOUT_MS", CURLOPT_CONNECTTIMEOUT_MS, long: self.options.connectTimeoutMs)
        try options.set("CURLOPT_HTTP_VERSION", CURLOPT_HTTP_VERSION,
                        long: self.options.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
        try options.set("CURLOPT_USERAGENT", CURLOPT_USERAGENT, string: self.options.userAgent)
        try options.set("CURLOPT_RANGE", CURLOPT_RANGE, string: transfer.rangeValue())
        // No Accept-Encoding is sent and nothing is decoded: segments never shrink, and a body's
        // size limit then holds for what arrives (no decompression bomb can pass it).
        try options.set("CURLOPT_HTTP_CONTENT_DECODING", CURLOPT_HTTP_CONTENT_DECODING, long: 0)
    }

    private func resume(_ id: ObjectIdentifier) {
        guard let transfer = transfers[id], transfer.paused, let easy = transfer.easy else { return }
        transfer.paused = false
        transfer.windowStart = .now
        transfer.windowBytes = 0
        beginMetering(transfer)
        _ = curl_easy_pause(easy, reel_shim_curlpause_cont)
    }

    private func collectCompletions() {
        var remainingMessages: Int32 = 0
        while let message = curl_multi_info_read(multi, &remainingMessages) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var raw: UnsafeMutableRawPointer?
            _ = reel_shim_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &raw)
            guard let raw else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(raw).takeUnretainedValue()
            completeAttempt(transfer, code: CurlCode(message.pointee.data.result))
        }
    }

    private func completeAttempt(_ transfer: Transfer, code: CurlCode) {
        guard let easy = transfer.easy else { return }
        recordTimings(transfer, easy: easy)
        if let refusal = transfer.refusal {
            finish(transfer, error: refusal)
            return
        }
        let status = responseCode(easy)
        if code == .ok || transfer.satisfied {
            if !transfer.responseSeen { noteResponse(transfer, easy: easy) }
            finish(transfer, error: nil)
            return
        }
        let url = transfer.spec.url.absoluteString
        if code == .operationTimedOut { transfer.stalls += 1 }
        let retryable = (code.isTransient || (code == .httpReturnedError && status >= 500))
            && transfer.stalls <= options.stallRetries
        if retryable && transfer.attempts <= options.maxRetries && !transfer.cancelled {
            endMetering(transfer)
            detachHandle(transfer)
            let backoff = options.retryBackoffMs << (transfer.attempts - 1)
            transfer.retryAt = .now + .milliseconds(backoff)
            stats.withLock { $0.retries += 1 }
            ReelLog.net.info("retrying '\(url)' in \(backoff) ms after \(code == .httpReturnedError ? "HTTP \(status)" : "\(code)") (attempt \(transfer.attempts) of \(options.maxRetries + 1))")
            return
        }
        finish(transfer, error: failure(code, status: status, url: url, easy: easy, transfer: transfer))
    }

    /// What a failed attempt's code means, said as what happened: libcurl names some causes
    /// by the symptom it met (a reply without a status line is an "unsupported protocol").
    private func failure(_ code: CurlCode, status: Int, url: String, easy: UnsafeMutableRawPointer,
                         transfer: Transfer) -> ReelError {
        switch code {
        case .httpReturnedError:
            return ReelError(status == 404 ? .notFound : .httpStatus, "HTTP \(status) for '\(url)'")
        case .couldNotConnect:
            return ReelError(.connectionFailed, "cannot connect to '\(url)'", cause: code)
        case .couldNotResolveHost:
            return ReelError(.connectionFailed, "cannot resolve host of '\(url)'", cause: code)
        case .operationTimedOut:
            let stalled = transfer.stalls == 1 ? "stalled" : "stalled \(transfer.stalls) times"
            return ReelError(.timeout, "'\(url)' \(stalled) (under \(options.lowSpeedLimitBytesPerSecond) bytes/s for \(options.lowSpeedTimeMs) ms)", cause: code)
        case .unsupportedProtocol:
            // Either a redirect to a scheme other than http(s), or a reply that is not HTTP at all.
            if let target = redirectTarget(easy), let scheme = URL(string: target)?.scheme?.lowercased(),
               scheme != "http" && scheme != "https" {
                return ReelError(.unsupportedScheme, "refused '\(url)': it redirects to '\(target)'; only http and https are allowed", cause: code)
            }
            return ReelError(.networkFailed, "the reply from '\(url)' is not HTTP (no valid status line: other bytes, HTTP/0.9 or a broken status)", cause: code)
        case .weirdServerReply:
            return ReelError(.networkFailed, "the reply from '\(url)' is not valid HTTP (a bad status line or header)", cause: code)
        case .tooManyRedirects:
            return ReelError(.networkFailed, "'\(url)' redirects more than 5 times", cause: code)
        case .outOfMemory:
            return ReelError(.networkFailed, "the reply from '\(url)' is too large to take in (its headers, most likely)", cause: code)
        case .badContentEncoding:
            return ReelError(.networkFailed, "the body of '\(url)' could not be decoded", cause: code)
        default:
            return ReelError(.networkFailed, "fetching '\(url)' failed", cause: code)
        }
    }

    /// Where the attempt's redirect pointed, if it was one. The corresponding C function is
    /// `curl_easy_getinfo` with `CURLINFO_REDIRECT_URL`.
    private func redirectTarget(_ easy: UnsafeMutableRawPointer) -> String? {
        var pointer: UnsafeMutableRawPointer?
        guard reel_shim_curl_easy_getinfo_pointer(easy, CURLINFO_REDIRECT_URL, &pointer) == CURLE_OK, let pointer else {
            return nil
        }
        return String(cString: pointer.assumingMemoryBound(to: CChar.self))
    }

    private func noteResponse(_ transfer: Transfer, easy: UnsafeMutableRawPointer) {
        transfer.responseSeen = true
        measureLatency(transfer, easy: easy)
        let status = responseCode(easy)
        if let encoding = header(easy, "Content-Encoding"), encoding.lowercased() != "identity" {
            transfer.refusal = ReelError(.networkFailed, """
                '\(transfer.spec.url.absoluteString)' came encoded (Content-Encoding: \(encoding)); \
                Reel asks for and reads only unencoded bodies
                """)
        }
        var length: curl_off_t = -1
        _ = reel_shim_curl_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        let asked = transfer.resumeOffset
        if status == 200 && asked > 0 {
            // The server ignored Range and sends the whole resource: drop what comes before.
            transfer.skipBytes = asked
        }
        var total: Int64?
        if let specLength = transfer.spec.length {
            total = specLength
        } else if length >= 0 {
            total = status == 206 ? Int64(length) + (asked - transfer.spec.offset) : Int64(length) - transfer.spec.offset
        }
        var connects = 0
        _ = reel_shim_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        if connects > 0 { stats.withLock { $0.newConnections += connects } }
        transfer.stream.responseStarted(contentLength: total) { metrics in
            metrics.httpStatus = status
            if transfer.attempts == 1 { metrics.reusedConnection = connects == 0 }
        }
    }

    fileprivate func handleBody(_ transfer: Transfer, easy: UnsafeMutableRawPointer, bytes: UnsafeRawBufferPointer) -> Int {
        if !transfer.responseSeen { noteResponse(transfer, easy: easy) }
        if transfer.refusal == nil, let limit = options.maxBodyBytes(for: transfer.spec.kind),
           transfer.stream.deliveredBytes + Int64(bytes.count) > limit {
            transfer.refusal = ReelError(.networkFailed, """
                '\(transfer.spec.url.absoluteString)' passed the \(limit)-byte limit of a \(transfer.spec.kind.rawValue) \
                (network.\(transfer.spec.kind == .playlist ? "maxManifestBytes" : transfer.spec.kind == .key ? "maxKeyBytes" : "maxSegmentBytes"))
                """)
        }
        // Returning less than offered makes libcurl end the attempt with a write error.
        if transfer.refusal != nil { return 0 }
        let before = transfer.stream.deliveredBytes
        guard let taken = transfer.deliver(bytes) else {
            transfer.paused = true
            endMetering(transfer)
            return reel_shim_curl_writefunc_pause
        }
        if transfer.metering { sampler.received(Int(transfer.stream.deliveredBytes - before)) }
        return taken
    }

    /// A metered transfer's body is under way (its response began, or it resumed): its time
    /// counts from `at` (default now).
    private func beginMetering(_ transfer: Transfer, at instant: ContinuousClock.Instant = .now) {
        guard transfer.isMetered, !transfer.metering else { return }
        transfer.metering = true
        sampler.began(at: instant - began)
    }

    /// The attempt's response began: its latency (request sent to first byte, libcurl's
    /// pre-transfer and start-transfer times) goes to the meter, whatever the resource, and a
    /// metered body's time counts from that first byte. The latency is estimated apart so a small
    /// segment's latency does not read as a slow link (`BandwidthEstimator`).
    private func measureLatency(_ transfer: Transfer, easy: UnsafeMutableRawPointer) {
        var sent: curl_off_t = 0
        var first: curl_off_t = 0
        _ = reel_shim_curl_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &sent)
        _ = reel_shim_curl_easy_getinfo_off_t(easy, CURLINFO_STARTTRANSFER_TIME_T, &first)
        guard first > 0 else {
            beginMetering(transfer)
            return
        }
        if first >= sent { meter.addLatency(.microseconds(first - sent)) }
        beginMetering(transfer, at: min(.now, transfer.attemptStartedAt + .microseconds(first)))
    }

    /// A metered transfer stopped or paused: the sample it closes goes to the meter.
    private func endMetering(_ transfer: Transfer) {
        guard transfer.metering else { return }
        transfer.metering = false
        if let sample = sampler.ended(at: .now - began) { meter.add(bytes: sample.bytes, elapsed: sample.elapsed) }
    }

    private func recordTimings(_ transfer: Transfer, easy: UnsafeMutableRawPointer) {
        func ms(_ info: CURLINFO) -> Double {
            var micros: curl_off_t = 0
            _ = reel_shim_curl_easy_getinfo_off_t(easy, info, &micros)
            return Double(micros) / 1000
        }
        let dns = ms(CURLINFO_NAMELOOKUP_TIME_T)
        let connect = ms(CURLINFO_CONNECT_TIME_T)
        let tls = ms(CURLINFO_APPCONNECT_TIME_T)
        let firstByte = ms(CURLINFO_STARTTRANSFER_TIME_T)
        let total = (ContinuousClock.now - transfer.startedAt).milliseconds
        transfer.stream.updateMetrics { metrics in
            metrics.dnsMs = dns
            metrics.connectMs = max(0, connect - dns)
            metrics.tlsMs = tls > 0 ? max(0, tls - connect) : 0
            metrics.firstByteMs = firstByte
            metrics.totalMs = total
        }
    }

    /// Whether the attempt's request has left: libcurl has a connection for it and is about to
    /// send (its pre-transfer time is set). The corresponding C function is `curl_easy_getinfo`
    /// with `CURLINFO_PRETRANSFER_TIME_T`.
    private func requestSent(_ easy: UnsafeMutableRawPointer) -> Bool {
        var micros: curl_off_t = 0
        _ = reel_shim_curl_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &micros)
        return micros > 0
    }

    private func responseCode(_ easy: UnsafeMutableRawPointer) -> Int {
        var code = 0
        _ = reel_shim_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func startDueRetries(now: ContinuousClock.Instant) {
        for transfer in transfers.values {
            if let due = transfer.retryAt, due <= now { startAttempt(transfer) }
        }
    }

    /// The low-speed watchdog: an attempt that receives less than the limit over the window
    /// (including a server that never answers) is abandoned and retried. The window starts once
    /// the request is on its way: an attempt waiting for one of the host's connections
    /// (`maxConnectionsPerHost`) or still connecting (bounded by `connectTimeoutMs`) is not slow.
    private func checkStalls(now: ContinuousClock.Instant) {
        let window = Duration.milliseconds(options.lowSpeedTimeMs)
        let minimum = Int64(options.lowSpeedLimitBytesPerSecond) * Int64(options.lowSpeedTimeMs) / 1000
        for transfer in Array(transfers.values) where transfer.easy != nil && !transfer.paused {
            if !transfer.requestSent {
                // Until the request leaves, the window keeps starting over; once it has, the
                // first window is a whole one from then.
                if let easy = transfer.easy, requestSent(easy) { transfer.requestSent = true }
                transfer.windowStart = now
                transfer.windowBytes = 0
                continue
            }
            guard now - transfer.windowStart >= window else { continue }
            if transfer.windowBytes < max(1, minimum) {
                if let easy = transfer.easy { _ = curl_multi_remove_handle(multi, easy) }
                completeAttempt(transfer, code: .operationTimedOut)
            } else {
                transfer.windowStart = now
                transfer.windowBytes = 0
            }
        }
    }

    private func detachHandle(_ transfer: Transfer) {
        guard let easy = transfer.easy else { return }
        _ = curl_multi_remove_handle(multi, easy)
        curl_easy_reset(easy)
        transfer.freeHeaders()
        if idleHandles.count < 32 { idleHandles.append(easy) } else { curl_easy_cleanup(easy) }
        transfer.easy = nil
        transfer.paused = false
    }

    private func finish(_ transfer: Transfer, error: ReelError?) {
        endMetering(transfer)
        detachHandle(transfer)
        transfers[ObjectIdentifier(transfer.stream)] = nil
        let bytes = transfer.stream.deliveredBytes
        stats.withLock {
            $0.bytes += bytes
            if let error, error.code != .cancelled { $0.failures += 1 }
        }
        if let error { transfer.stream.fail(error) } else { transfer.stream.finish() }
        let logger = ReelLog.net
        if logger.logLevel <= .debug {
            let metrics = transfer.stream.metrics
            logger.debug("GET \(transfer.spec.url.absoluteString) \(error.map { "failed: \($0.description)" } ?? "\(metrics.httpStatus)"), \(bytes) B in \(Int(metrics.totalMs.rounded())) ms",
                         metadata: ["attempts": "\(transfer.attempts)", "reused": "\(metrics.reusedConnection)",
                                    "firstByteMs": "\(Int(metrics.firstByteMs.rounded()))"])
        }
    }

    private func remove(_ transfer: Transfer, cancelled: Bool) {
        transfer.cancelled = cancelled
        if let easy = transfer.easy { recordTimings(transfer, easy: easy) }
        finish(transfer, error: ReelError(.cancelled, "transfer of '\(transfer.spec.url.absoluteString)' cancelled"))
    }
}

/// libcurl's write callback: hands body bytes to the transfer's stream.
private let transferWriteCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    guard let easy = transfer.easy, let engine = transfer.engine else { return 0 }
    return engine.handleBody(transfer, easy: easy, bytes: UnsafeRawBufferPointer(start: data, count: size * count))
}

extension TransferCore {
    /// The first value of response header `name`, or nil. The corresponding C function is
    /// `curl_easy_header`.
    func header(_ easy: UnsafeMutableRawPointer, _ name: String) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK,
              let value = found?.pointee.value else { return nil }
        return String(cString: value)
    }
}
