import CCurl
import CReelShims
import Foundation
import ReelCore

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
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    private let stats = Locked(TransferEngine.Statistics())
    private let stopped = Locked(false)
    private var transfers: [ObjectIdentifier: Transfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []
    private let finished = DispatchSemaphore(value: 0)

    init(options: NetworkOptions) {
        CurlGlobal.initialize()
        self.options = options
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
        transfer.windowStart = .now
        transfer.windowBytes = 0
        stats.withLock { $0.attempts += 1 }
        transfer.stream.updateMetrics { $0.attempts = transfer.attempts }
        let easy = idleHandles.popLast() ?? curl_easy_init()
        guard let easy else {
            finish(transfer, error: ReelError(.internalFailure, "curl_easy_init failed for '\(transfer.spec)'"))
            return
        }
        transfer.easy = easy
        configure(easy, for: transfer)
        let code = curl_multi_add_handle(multi, easy)
        if code != CURLM_OK {
            finish(transfer, error: ReelError(
                .internalFailure, "curl_multi_add_handle failed for '\(transfer.spec)': code \(code.rawValue)"))
        }
    }

    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: Transfer) {
        let me = Unmanaged.passUnretained(transfer).toOpaque()
        _ = reel_shim_curl_easy_setopt_string(easy, CURLOPT_URL, transfer.spec.url.absoluteString)
        _ = reel_shim_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me)
        _ = reel_shim_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = reel_shim_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, transferWriteCallback)
        _ = reel_shim_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = reel_shim_curl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, 5)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_FAILONERROR, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_TCP_NODELAY, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 64 << 10)
        _ = reel_shim_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMs)
        _ = reel_shim_curl_easy_setopt_long(
            easy, CURLOPT_HTTP_VERSION,
            options.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
        _ = reel_shim_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, options.userAgent)
        if let range = transfer.rangeValue() {
            _ = reel_shim_curl_easy_setopt_string(easy, CURLOPT_RANGE, range)
        } else {
            _ = reel_shim_curl_easy_setopt_pointer(easy, CURLOPT_RANGE, nil)
        }
    }

    private func resume(_ id: ObjectIdentifier) {
        guard let transfer = transfers[id], transfer.paused, let easy = transfer.easy else { return }
        transfer.paused = false
        transfer.windowStart = .now
        transfer.windowBytes = 0
        _ = curl_easy_pause(easy, reel_shim_curlpause_cont)
    }

    /// Called from the write callback on this thread when the reader is too far behind.
    fileprivate func didPause(_ transfer: Transfer) { transfer.paused = true }

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
        let status = responseCode(easy)
        if code == .ok || transfer.satisfied {
            if !transfer.responseSeen { noteResponse(transfer, easy: easy) }
            finish(transfer, error: nil)
            return
        }
        let url = transfer.spec.url.absoluteString
        let retryable = code.isTransient || (code == .httpReturnedError && status >= 500)
        if retryable && transfer.attempts <= options.maxRetries && !transfer.cancelled {
            detachHandle(transfer)
            let backoff = options.retryBackoffMs << (transfer.attempts - 1)
            transfer.retryAt = .now + .milliseconds(backoff)
            stats.withLock { $0.retries += 1 }
            return
        }
        let error: ReelError
        switch code {
        case .httpReturnedError:
            error = ReelError(status == 404 ? .notFound : .httpStatus, "HTTP \(status) for '\(url)'")
        case .couldNotConnect:
            error = ReelError(.connectionFailed, "cannot connect to '\(url)'", cause: code)
        case .couldNotResolveHost:
            error = ReelError(.connectionFailed, "cannot resolve host of '\(url)'", cause: code)
        case .operationTimedOut:
            error = ReelError(.timeout, "timed out fetching '\(url)'", cause: code)
        case .unsupportedProtocol:
            error = ReelError(.unsupportedScheme, "refused '\(url)': only http and https are allowed (after redirects too)", cause: code)
        default:
            error = ReelError(.networkFailed, "fetching '\(url)' failed", cause: code)
        }
        finish(transfer, error: error)
    }

    private func noteResponse(_ transfer: Transfer, easy: UnsafeMutableRawPointer) {
        transfer.responseSeen = true
        let status = responseCode(easy)
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
        guard let taken = transfer.deliver(bytes) else {
            transfer.paused = true
            return reel_shim_curl_writefunc_pause
        }
        return taken
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
    /// (including a server that never answers) is abandoned and retried.
    private func checkStalls(now: ContinuousClock.Instant) {
        let window = Duration.milliseconds(options.lowSpeedTimeMs)
        let minimum = Int64(options.lowSpeedLimitBytesPerSecond) * Int64(options.lowSpeedTimeMs) / 1000
        for transfer in Array(transfers.values) where transfer.easy != nil && !transfer.paused {
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
        if idleHandles.count < 32 { idleHandles.append(easy) } else { curl_easy_cleanup(easy) }
        transfer.easy = nil
        transfer.paused = false
    }

    private func finish(_ transfer: Transfer, error: ReelError?) {
        detachHandle(transfer)
        transfers[ObjectIdentifier(transfer.stream)] = nil
        let bytes = transfer.stream.deliveredBytes
        stats.withLock {
            $0.bytes += bytes
            if let error, error.code != .cancelled { $0.failures += 1 }
        }
        if let error { transfer.stream.fail(error) } else { transfer.stream.finish() }
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

extension Duration {
    /// The duration in (fractional) milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
