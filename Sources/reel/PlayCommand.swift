import ArgumentParser
import Foundation
import ReelCore
import ReelStore
import ReelManifest
import ReelMedia
import ReelNet

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an HLS or DASH stream (or a media file) headlessly and measure its start and frames.",
        discussion: """
            Prints one TTFF line with its phases and one frame-timing line. TTFF runs from the play \
            request, before any I/O, to the first decoded video frame handed to the renderer; its \
            phases (manifest, open, probe, codec open, first frame) add up to it. The TTFF line \
            says whether the start was cold (its playlists and first segment from the network), \
            warm (from the disk cache), mixed or local; --cold plays through an empty cache of its \
            own, so a second play measures a first play's start without deleting the cache. fps is \
            playback fps (frames per second of presentation); with --fast the decoding rate is \
            printed apart. On a terminal a progress line shows the media time, fps, buffer, \
            bitrate and bytes as it plays. Ctrl-C stops the play: its summary is printed (exit 130).

            With --framemd5, standard output carries ffmpeg's own framemd5 text (its header, then \
            stream, dts, pts, duration, size and md5 per decoded video frame, times in 1/frame-rate \
            units), so `diff <(reel play IN --fast --framemd5) <(ffmpeg -i IN -map 0:v:0 -autoscale 0 \
            -f framemd5 -)` compares the frames; the summary goes to standard error.

            Remote inputs read through the disk cache (--cache, default cache.directory, else \
            $XDG_CACHE_HOME/reel or ~/.cache/reel): cached bytes come from disk, the rest streams from \
            the network into the cache as it plays. With --offline, or once the input's host turns out to \
            be unreachable, playback plays what the cache holds and fetches nothing from that host: \
            the variant whose start is cached, up to the last cached segment. Reachability is judged \
            per host: a variant on a dead host is a failed variant, not a dead network.

            A variant whose segment fails (after retries) or is not media (an HTML error page) gives \
            the segment to the variant played before and is left out for the rest of the play; the \
            summary and --json's `abr` (`fallbacks`, `excluded`) list both. A play that cannot be \
            completed (media no variant could give, failures past the failure budget) prints its \
            report, then the error, and exits non-zero; --json's `failure` says why.

            Exit status: 0 success, 2 bad input, 3 network (offline: nothing usable cached), 4 playlist \
            or manifest, 5 decoding, 6 cache, 130 interrupted (reel --help lists them all).
            """)

    @Argument(help: "An http(s) URL or a local path of a playlist (.m3u8), an MPD, or a media file.")
    var input: String

    @Option(parsing: .unconditional, help: "Stop after this many video frames.")
    var frames: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds of media.", valueName: "S"))
    var seconds: Double?

    @Flag(help: "Decode as fast as possible instead of pacing frames in real time.")
    var fast = false

    @Option(parsing: .unconditional, help: "Decoder threads (0 lets FFmpeg choose; 1 starts fastest). Default: decoder.threads.")
    var threads: Int?

    @Flag(help: "Print ffmpeg's framemd5 text (an MD5 line per decoded video frame) on standard output.")
    var framemd5 = false

    @Option(help: "Write the first decoded frame as a PNG to this path.")
    var thumbnail: String?

    @Option(help: "Bytes the demuxer may read to detect streams. Default: decoder.probeSizeBytes.")
    var probesize: Int?

    @Option(name: .customLong("analyzeduration-ms"), help: "Media time the demuxer may analyse for stream parameters. Default: decoder.analyzeDurationMs.")
    var analyzeDurationMs: Int?

    @Flag(name: .customLong("find-stream-info"), help: "Also run avformat_find_stream_info after opening (slower start); same as --set decoder.findStreamInfo=true.")
    var findStreamInfo = false

    @Flag(name: .customLong("no-audio"), help: "Do not decode the audio stream.")
    var noAudio = false

    @Flag(help: "Print one JSON object instead of the human summary.")
    var json = false

    @OptionGroup var cache: CacheOptions

    @Flag(name: .customLong("no-cache"), help: "Do not read or write the disk cache (same as --set cache.enabled=false).")
    var noCache = false

    @Flag(help: "Fetch nothing: play what the cache holds (the variant whose start is cached, up to the last cached segment).")
    var offline = false

    @Flag(help: "Play as if the cache were empty: through a new cache of its own (deleted afterwards), the cache folder untouched.")
    var cold = false

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1 (got \(frames))") }
        if let seconds, !(seconds > 0 && seconds <= 86_400) { throw ValidationError("--seconds must be in (0, 86400] (got \(seconds))") }
        if let threads, threads < 0 { throw ValidationError("--threads must be 0 or more (got \(threads))") }
        if let probesize, probesize < 32 { throw ValidationError("--probesize must be at least 32 bytes (got \(probesize))") }
        if let analyzeDurationMs, analyzeDurationMs < 0 { throw ValidationError("--analyzeduration-ms must be 0 or more") }
        if offline && noCache { throw ValidationError("--offline plays from the cache; it cannot be used with --no-cache") }
        if cold && (offline || noCache) {
            throw ValidationError("--cold plays through an empty cache; it cannot be used with --\(offline ? "offline" : "no-cache")")
        }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("play") { try await execute() }
    }

    private func execute() async throws {
        let settings = try config.resolve()
        let url = try InputLocation.parse(input)
        try OutputPaths.prepare([(thumbnail, "the thumbnail")])
        var request = PlaybackRequest(input: url, config: settings)
        request.mode = fast ? .fast : .realTime
        request.maxFrames = frames
        request.maxMediaSeconds = seconds
        if let threads { request.threads = threads }
        request.frameHashes = framemd5
        request.thumbnailPath = thumbnail
        request.decodeAudio = !noAudio
        request.cold = cold
        if let probesize { request.demux.probeSizeBytes = probesize }
        if let analyzeDurationMs { request.demux.analyzeDurationMs = analyzeDurationMs }
        if findStreamInfo { request.demux.findStreamInfo = true }
        if offline && !settings.cache.enabled {
            throw ReelError(.invalidConfig, "--offline plays from the cache, but cache.enabled is false")
        }
        var options = ReelStack.Options()
        // Local inputs are read where they are; only http(s) bytes are cached.
        let cached = !url.isFileURL && settings.cache.enabled && !noCache
        options.cache = cached ? (cold ? .temporary : .folder(cache.location(settings))) : .none
        // A cold start also starts the bandwidth estimate afresh, as a first play does.
        options.remembersEstimate = !cold
        options.cacheMaxBytes = cache.limit(settings)
        options.offline = offline && cached
        options.allowLocalFiles = url.isFileURL
        let printer = LinePrinter()
        var onFrameHash: (@Sendable (FrameHash) -> Void)?
        if framemd5 {
            let format = Locked(FrameMD5Format())
            onFrameHash = { hash in
                for line in format.withLock({ $0.lines(for: hash) }) { printer.print(line) }
            }
        }
        let interruption = Interruption()
        let line = LiveLine.onTerminal(json: json)
        let (report, offlineNote) = try await ReelStack.with(config: settings, options: options) { stack in
            let playback = Playback(request: request, factory: stack.factory, onFrameHash: onFrameHash)
            let stopping = interruption.stop.onCancel { playback.stop() }
            defer { interruption.stop.removeHandler(stopping) }
            let ticker = Task {
                while !Task.isCancelled {
                    let progress = playback.progress
                    if progress.started { line.show(PlaySummary.progress(progress)) }
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
            defer { ticker.cancel() }
            let report: PlaybackReport
            do {
                report = try await playback.run()
            } catch let error as ReelError where error.code == .cancelled && interruption.signal != nil {
                line.finish()
                throw ReelError(.cancelled, "'\(url.absoluteString)' was interrupted before its first frame")
            }
            line.finish()
            var note: String?
            if let cache = stack.cache, !cold, stack.reachability.isOffline(for: url) {
                let why = stack.reachability.failure(for: url).map { "the network is unreachable (\($0.message))" } ?? "--offline"
                note = "Offline: \(why); played what the cache '\(cache.directory.path)' holds"
            }
            return (report, note)
        }
        printer.flush()
        var summary = json ? try CLIOutput.json(report) : PlaySummary.text(report)
        if !json, let offlineNote { summary += "\n" + offlineNote }
        if framemd5 { CLIOutput.printToStandardError(summary) } else { print(summary) }
        try interruption.exitIfInterrupted()
        // A play that ended short is a failure, with its report printed first.
        if let failure = report.failure { throw failure.error }
    }
}

/// Buffered writes to standard output from the playback thread (hash lines come fast).
final class LinePrinter: Sendable {
    private let buffer = FileLineBuffer()

    func print(_ line: String) { buffer.append(line) }
    func flush() { buffer.flush() }
}

/// Prints the human summary of a playback.
enum PlaySummary {
    static func text(_ report: PlaybackReport) -> String {
        let p = report.phases
        var lines: [String] = []
        var ttff = "TTFF \(Human.ms(report.ttffMs)), \(startText(report.start)) (manifest \(Human.ms(p.manifestMs)), open \(Human.ms(p.openMs)), "
            + "probe \(Human.ms(p.probeMs)), codec open \(Human.ms(p.codecOpenMs)), first frame \(Human.ms(p.firstFrameMs)))"
        // Network timings mean something only for a request that went over HTTP.
        if let first = report.network.firstRequest, first.url.hasPrefix("http") {
            ttff += "; first request: connect \(Human.ms(first.connectMs)), first byte \(Human.ms(first.firstByteMs))"
        }
        lines.append(ttff)
        let v = report.video
        lines.append(
            "Video \(v.codec) \(v.width)x\(v.height): \(v.frames) frames (\(String(format: "%.1f", v.mediaSeconds)) s), \(String(format: "%.1f", v.fps)) fps, "
            + (v.decodeFps.map { "decoded at \(String(format: "%.0f", $0)) fps, " } ?? "")
            + "decode p50 \(Human.ms(v.decodeMs.p50)) p95 \(Human.ms(v.decodeMs.p95)) max \(Human.ms(v.decodeMs.max)), "
            + "late \(v.late), dropped \(v.dropped), stalls \(v.stalls)"
            + (v.stalls > 0 ? " (\(Human.ms(v.stallMs)))" : ""))
        if let audio = report.audio { lines.append("Audio \(audio.codec): \(audio.frames) frames") }
        // A local input is read from disk: its reads are no network requests.
        var network = report.start == .local
            ? "Input: \(report.network.requests) local file read\(report.network.requests == 1 ? "" : "s"), \(Human.bytes(report.network.bytes))"
            : "Network: \(report.network.requests) requests, \(Human.bytes(report.network.bytes))"
        if report.network.cacheHitBytes > 0 { network += " (\(Human.bytes(report.network.cacheHitBytes)) from cache)" }
        if let variant = report.variant { network += "; variant \(variant)" }
        if let bandwidth = report.bandwidth { network += "; estimate \(bandwidth.estimateKbps) kbps (\(bandwidth.samples) samples)" }
        lines.append(network)
        if let abr = report.abr, abr.adaptive {
            let ups = abr.switches.filter(\.isUp).count
            lines.append("Adaptive: started on \(abr.startVariant) at \(abr.startEstimateKbps) kbps estimated; \(abr.segments.count) segments, "
                         + "\(ups) switch\(ups == 1 ? "" : "es") up, \(abr.switches.count - ups) down")
        }
        if let abr = report.abr {
            for fallback in abr.fallbacks {
                lines.append("Fallback: segment \(fallback.segment) taken from \(fallback.to) instead of \(fallback.from): \(fallback.reason)")
            }
            for exclusion in abr.excluded {
                let at = exclusion.segment.map { "at segment \($0)" } ?? "at the start"
                lines.append("Excluded: \(exclusion.variant) \(at): \(exclusion.reason)")
            }
        }
        if !report.errors.isEmpty {
            lines.append("Problems (\(report.errors.count)): " + report.errors.prefix(3).joined(separator: "; "))
        }
        if report.interrupted { lines.append("Interrupted: stopped after \(String(format: "%.1f", v.shownSeconds)) s of media shown") }
        return lines.joined(separator: "\n")
    }

    /// How the TTFF line names a start.
    static func startText(_ start: PlaybackReport.Start) -> String {
        switch start {
        case .cold: "cold (from the network)"
        case .warm: "warm (from the disk cache)"
        case .mixed: "partly warm (some from the disk cache)"
        case .local: "local file"
        }
    }

    /// The live line on a terminal: media time, fps, buffer, bitrate, bytes.
    static func progress(_ progress: PlaybackProgress) -> String {
        var parts = ["play: \(String(format: "%.1f", progress.mediaSeconds)) s shown", "\(progress.frames) frames decoded"]
        if let fps = progress.fps { parts.append(String(format: "%.1f fps", fps)) }
        parts.append(String(format: "buffer %.1f s", progress.bufferedSeconds))
        if let kbps = progress.bitrateKbps { parts.append("\(kbps) kbps") }
        parts.append(Human.bytes(progress.bytes))
        return parts.joined(separator: ", ")
    }
}
