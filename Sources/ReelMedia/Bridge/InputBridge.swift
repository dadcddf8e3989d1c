import CAVCodec
import CAVFormat
import CAVUtil
import CReelShims
import Foundation
import ReelCore
import ReelManifest
import ReelNet
import Synchronization

/// Routes every open a demuxer makes (playlists, init sections, segments, keys, `crypto+` URLs)
/// through Reel's data sources via `io_open`/`io_close2`, so FFmpeg's own protocols never run.
/// Lives as long as its format context, which points at it through `opaque` (unretained).
final class InputBridge {
    let factory: any DataSourceFactory
    let cancellation: Cancellation
    let policy: URLPolicy
    let log: RequestLog
    /// What each known URL is (from Reel's own manifest model); unknown URLs count as segments.
    let kinds: [String: ResourceKind]
    /// Playlists Reel wrote itself, answered from memory.
    let virtualResources: [String: [UInt8]]
    /// The play's variant choice per segment: maps Reel-owned segment names to real segments
    /// when the play switches variants, and records every segment opened.
    let adaptive: ABRController?
    private(set) var errors: [ReelError] = []
    /// Fetches of media (segments, init sections, keys) that failed for good, after the
    /// transfer's retries and any other variant: the media they held is missing from the play.
    private(set) var lostMedia: [ReelError] = []
    private(set) var opens = 0
    /// Bytes the demuxer has read through the bridge (on the demuxer's thread).
    var bytesRead: Int64 = 0
    /// When the play's fetches have failed long enough, in a row, to end it.
    private let budget: BudgetKeeper
    /// The play's input, named in errors about what it led to (a segment that is not media).
    let input: URL?
    /// What the play says of its requests in CMCD, and what the bridge knows of each segment.
    private let cmcd: CMCDPlay?
    private let segmentHints: [String: CMCDHints]

    /// A bridge for the play of `input` as `resolved` describes it (the kinds of its URLs, the
    /// playlists Reel wrote, its variant choice), reading through `factory`.
    init(factory: any DataSourceFactory, cancellation: Cancellation, input: URL, resolved: ResolvedInput, log: RequestLog,
         budget: FailureBudget = FailureBudget(NetworkOptions()), adaptive: Bool = true, cmcd: CMCDPlay? = nil) {
        self.cmcd = cmcd
        segmentHints = cmcd == nil ? [:] : Self.segmentHints(resolved, input: input)
        self.factory = factory
        self.cancellation = cancellation
        self.policy = .forTopLevel(input)
        self.log = log
        self.budget = BudgetKeeper(budget, cancellation: cancellation)
        self.kinds = resolved.kinds
        self.virtualResources = resolved.virtualResources
        self.adaptive = adaptive ? resolved.adaptive : nil
        self.input = input
    }

    /// What CMCD says of each segment, init section and key of the play, by URL: its object type,
    /// format, bitrate, duration and the next segment.
    private static func segmentHints(_ resolved: ResolvedInput, input: URL) -> [String: CMCDHints] {
        var hints: [String: CMCDHints] = [:]
        let format: CMCDHints.StreamingFormat = input.pathExtension.lowercased() == "mpd" ? .dash : .hls
        let separateAudio = resolved.audioPlaylist != nil
        for (playlist, type) in [(resolved.playlist, separateAudio ? CMCDHints.ObjectType.video : .muxed),
                                 (resolved.audioPlaylist, .audio)] {
            guard let playlist else { continue }
            let segments = playlist.segments
            for (index, segment) in segments.enumerated() {
                var hint = CMCDHints(objectType: type, streamingFormat: format)
                hint.streamType = playlist.endList ? .vod : .live
                hint.bitrateKbps = type == .audio ? nil : resolved.bitrateKbps
                hint.topBitrateKbps = type == .audio ? nil : resolved.topBitrateKbps
                hint.durationMs = Int((segment.duration * 1000).rounded())
                if index + 1 < segments.count { hint.nextObject = segments[index + 1].uri }
                hints[segment.resolvedString] = hint
                if let initSection = segment.initSection {
                    var initHint = CMCDHints(objectType: .initSection, streamingFormat: format)
                    initHint.streamType = hint.streamType
                    hints[initSection.resolvedURL.absoluteString] = hints[initSection.resolvedURL.absoluteString] ?? initHint
                }
            }
        }
        return hints
    }

    /// `spec` with what CMCD says of it: what the bridge knows of the resource (or what the
    /// adaptive rule put on it), and where the play stands now.
    func hinted(_ spec: DataSpec) -> DataSpec {
        guard let cmcd else { return spec }
        var hints = cmcd.hints(segmentHints[spec.url.absoluteString])
        if let given = spec.cmcd {
            hints.bitrateKbps = given.bitrateKbps ?? hints.bitrateKbps
            hints.topBitrateKbps = given.topBitrateKbps ?? hints.topBitrateKbps
            hints.durationMs = given.durationMs ?? hints.durationMs
            hints.nextObject = given.nextObject ?? hints.nextObject
        }
        if spec.kind == .playlist { hints.objectType = .manifest }
        return spec.with(hints)
    }

    func recordError(_ error: ReelError) {
        errors.append(error)
    }

    /// Why the bridge ended the play (its failure budget ran out), or nil.
    var gaveUp: ReelError? { budget.gaveUp }

    /// A fetch that started at `started` failed (after its own retries): recorded, and counted
    /// against the budget; when it runs out every read of the play is cancelled. `media` when
    /// the fetch was of media, which the play then lacks.
    func fetchFailed(_ error: ReelError, started: Duration, media: Bool) {
        recordError(error)
        if media && error.code != .cancelled && !cancellation.isCancelled { lostMedia.append(error) }
        budget.failed(error, started: started)
    }

    /// Opens `text` for a demuxer. `options` may carry `offset`/`end_offset` (BYTERANGE over
    /// http) and `key`/`iv` (AES-128, with a `crypto+` URL).
    func open(_ text: String, options: OpaquePointer?) throws -> SourceIO {
        let started = budget.now
        do {
            return try openCounted(text, options: options, started: started)
        } catch let error as ReelError {
            let kind = kinds[text] ?? (virtualResources[text] == nil ? .segment : .playlist)
            fetchFailed(error, started: started, media: kind != .playlist)
            throw error
        }
    }

    private func openCounted(_ text: String, options: OpaquePointer?, started: Duration) throws -> SourceIO {
        opens += 1
        var address = text
        var decryption: (key: [UInt8], iv: [UInt8])?
        for prefix in ["crypto+", "crypto:"] where address.hasPrefix(prefix) {
            address.removeFirst(prefix.count)
            guard let key = Self.hexOption(options, "key"), let iv = Self.hexOption(options, "iv") else {
                throw ReelError(.invalidInput, "encrypted segment '\(address)' was opened without a key and IV")
            }
            decryption = (key, iv)
        }
        let url = try policy.check(address)
        if let bytes = virtualResources[address] {
            let memory = MemoryDataSource(bytes)
            let spec = DataSpec(url: url, kind: .playlist)
            let length = try memory.open(spec)
            return SourceIO(source: memory, spec: spec, length: length, reopen: nil,
                            onError: { [weak self] error in self?.recordError(error) }, onProgress: { [weak self] in self?.bytesRead += Int64($0) },
                            onClose: { _ in })
        }
        var spec = DataSpec(url: url, kind: kinds[url.absoluteString] ?? kinds[address] ?? .segment)
        let opened: (source: any DataSource, spec: DataSpec, length: Int64?)
        if let adaptive, let mapped = try adaptive.openSegment(address, open: { try openChecked(hinted($0)) }) {
            // A Reel-owned segment name: segment k of the variant the adaptive rule chose (or,
            // when that one's failed, of the variant before).
            opened = mapped
        } else {
            if !url.isFileURL, let offset = Self.intOption(options, "offset") {
                // Over HTTP the HLS demuxer asks for a BYTERANGE with options; locally it seeks itself.
                spec = DataSpec(url: url, offset: offset, length: Self.intOption(options, "end_offset").map { $0 - offset },
                                kind: spec.kind)
            }
            if spec.kind == .segment { adaptive?.opened(spec) }
            opened = try openChecked(hinted(spec))
        }
        spec = opened.spec
        let source = opened.source
        let length = opened.length
        var reader: any DataSource = source
        if let decryption {
            reader = try AESDecryptingDataSource(upstream: source, key: decryption.key, iv: decryption.iv)
        }
        let factory = self.factory
        let cancellation = self.cancellation
        let log = self.log
        let reopen: ((DataSpec) throws -> any DataSource)? = decryption == nil
            ? { next in
                let fresh = factory.makeDataSource(cancellation: cancellation)
                _ = try fresh.open(next)
                return fresh
            }
            : nil
        let media = spec.kind != .playlist
        let adaptive = spec.kind == .segment ? self.adaptive : nil
        return SourceIO(
            source: reader, spec: spec, length: decryption == nil ? length : nil, reopen: reopen,
            progressive: spec.kind == .segment,
            onError: { [weak self] error in self?.fetchFailed(error, started: started, media: media) },
            onProgress: { [weak self, budget] count in
                self?.bytesRead += Int64(count)
                if media { budget.progressed() }
            },
            onClose: { io in
                for metrics in io.finishedMetrics { log.record(metrics) }
                if let adaptive, let last = io.finishedMetrics.last { adaptive.fetched(last) }
            })
    }

    /// Opens `spec` with a new source of the play; a segment's first bytes must look like media
    /// (an HTML error page or a playlist served in its place fails here, naming what it is).
    private func openChecked(_ spec: DataSpec) throws -> (source: any DataSource, spec: DataSpec, length: Int64?) {
        let source = factory.makeDataSource(cancellation: cancellation)
        do {
            let length = try source.open(spec)
            guard spec.kind == .segment else { return (source, spec, length) }
            let head = try source.read(upTo: 4096)
            if let looksLike = ManifestContent.notMedia(Data(head)) {
                let of = input.map { " of '\($0.absoluteString)'" } ?? ""
                throw ReelError(.openFailed, "segment '\(spec.url.absoluteString)'\(of) is not media: it is \(looksLike)")
            }
            return (PrefixedDataSource(prefix: head, upstream: source), spec, length)
        } catch {
            source.close()
            log.record(source.metrics)
            throw error
        }
    }

    private static func option(_ options: OpaquePointer?, _ name: String) -> String? {
        guard let options, let entry = av_dict_get(options, name, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    private static func intOption(_ options: OpaquePointer?, _ name: String) -> Int64? {
        option(options, name).flatMap { Int64($0) }
    }

    private static func hexOption(_ options: OpaquePointer?, _ name: String) -> [UInt8]? {
        guard let text = option(options, name), text.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

/// A play's `FailureBudget`, fed on the demuxer's thread and checked by a timer while a run of
/// failures goes on (a request blocked past the budget, a second stall, is given up on at the
/// deadline without waiting for its end). Giving up cancels every read of the play.
private final class BudgetKeeper: Sendable {
    private let budget: Locked<FailureBudget>
    private let cancellation: Cancellation
    private let began = ContinuousClock.now

    init(_ budget: FailureBudget, cancellation: Cancellation) {
        self.budget = Locked(budget)
        self.cancellation = cancellation
    }

    /// Time since the play began, the budget's clock.
    var now: Duration { ContinuousClock.now - began }

    var gaveUp: ReelError? { budget.withLock { $0.gaveUp } }

    func failed(_ error: ReelError, started: Duration) {
        let now = self.now
        let (verdict, deadline) = budget.withLock { budget in (budget.failed(error, started: started, now: now), budget.deadline) }
        act(on: verdict)
        if case .goOn = verdict, let deadline { scheduleCheck(at: deadline) }
    }

    /// Media bytes arrived: the run of failures is over.
    func progressed() {
        budget.withLock { $0.progressed() }
    }

    private func act(on verdict: FailureBudget.Verdict) {
        if case .giveUp = verdict { cancellation.cancel() }
    }

    /// Looks at the budget again at `deadline`: a task that only sleeps, then takes a lock.
    private func scheduleCheck(at deadline: Duration) {
        let wait = max(.zero, deadline - now)
        Task { [weak self] in
            try? await Task.sleep(for: wait)
            guard let self else { return }
            let now = self.now
            self.act(on: self.budget.withLock { $0.deadlinePassed(now: now) })
        }
    }
}

/// FFmpeg's `io_open` for contexts bridged by an `InputBridge` (found through `opaque`).
let bridgeIOOpen: @convention(c) (
    UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
    UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 = { context, pb, url, flags, options in
    guard let context, let pb, let url, let opaque = context.pointee.opaque else {
        return AVErrorCode.invalidArgument.rawValue
    }
    let bridge = Unmanaged<InputBridge>.fromOpaque(opaque).takeUnretainedValue()
    let text = String(cString: url)
    guard flags & AVIO_FLAG_WRITE == 0 else {
        bridge.recordError(ReelError(.forbiddenURL, "refused to open '\(text)' for writing"))
        return AVErrorCode.invalidArgument.rawValue
    }
    do {
        let io = try bridge.open(text, options: options?.pointee)
        guard let avio = io.makeContext() else {
            io.close()
            return AVErrorCode.outOfMemory.rawValue
        }
        pb.pointee = avio
        return 0
    } catch let error as ReelError {
        // `open` recorded it already.
        switch error.code {
        case .cancelled: return AVErrorCode.exit.rawValue
        case .notFound: return AVErrorCode.notFound.rawValue
        default: return AVErrorCode.io.rawValue
        }
    } catch {
        bridge.recordError(ReelError(.openFailed, "opening '\(text)' failed: \(error)"))
        return AVErrorCode.io.rawValue
    }
}

/// FFmpeg's `io_close2`: frees the context and its buffer and closes the source; never `avio_close`.
let bridgeIOClose: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = {
    _, pb in
    SourceIO.free(pb)
    return 0
}

/// The interrupt callback: FFmpeg polls it during blocking work; non-zero stops the operation.
let bridgeInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<Cancellation>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
}
