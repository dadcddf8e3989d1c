import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Opens an input for decoding, the same way for `reel play` and for a feed's players: resolve it
/// with Reel's manifest model (variant choice, DASH as an HLS view), open the demuxer through the
/// input bridge, probe when asked, choose the video (and audio) stream, and set up its conversion
/// to Annex B when it is H.264 from MP4. Blocking: call it on a dedicated thread.
struct MediaOpener {
    var factory: any DataSourceFactory
    var cancellation: Cancellation
    var log: RequestLog
    var constraints: PlaybackConstraints
    var manifestLimits = ManifestLimits.default
    var demux: DemuxOptions
    /// Resolve and choose an audio stream too.
    var includeAudio: Bool
    /// How long the play goes on while its fetches fail.
    var failureBudget = FailureBudget(NetworkOptions())
    /// With an audio rendition apart from the video (DASH), open the video alone and leave the
    /// audio to `OpenedMedia.openDeferredAudio()`: FFmpeg's HLS demuxer would otherwise read the
    /// audio's init section and first segment inside `avformat_open_input`, before the first
    /// video frame.
    var deferAudio = false
    /// What the play says of its requests in CMCD (when `network.cmcd.enabled`).
    var cmcd: CMCDPlay?

    /// Opens `url`, recording the manifest, open and probe instants in `timeline`.
    func open(_ url: URL, timeline: inout TTFFTimeline) throws -> OpenedMedia {
        // Manifest: Reel fetches and looks at the top-level input itself.
        var resolver = InputResolver(factory: factory, cancellation: cancellation, log: log, constraints: constraints)
        resolver.includeAudio = includeAudio
        resolver.limits = manifestLimits
        resolver.cmcd = cmcd?.manifestHints
        let resolved = try resolver.resolve(url)
        timeline.manifestDone = .now

        // Open: the demuxer reads the playlist and opens the first segment through the bridge.
        let bridge = InputBridge(factory: factory, cancellation: cancellation, input: url, resolved: resolved, log: log,
                                 budget: failureBudget, cmcd: cmcd)
        var opening = resolved
        var deferred: DeferredAudio?
        if deferAudio, let video = resolved.videoPlaylistURL, let videoURL = URL(string: video),
           let videoText = resolved.virtualResources[video], let audio = resolved.audioPlaylistURL,
           let audioText = resolved.virtualResources[audio] {
            opening.url = videoURL
            opening.content = .playlist(bytes: videoText, demuxer: "hls")
            deferred = DeferredAudio(url: audio, playlist: audioText, opener: self, topLevel: url, resolved: resolved)
        }
        let (top, demuxer) = try topLevel(opening, bridge: bridge)
        let input: MediaInput
        do {
            input = try MediaInput(
                url: opening.url.absoluteString, top: top, formatName: demuxer, options: demux, bridge: bridge)
        } catch let error as ReelError where error.cause as? AVErrorCode == .invalidData {
            // The playlist was fine (Reel parsed it); what FFmpeg could not read is the media.
            guard let first = resolved.playlist?.segments.first else { throw error }
            throw ReelError(
                .openFailed,
                "segment '\(first.resolvedURL.absoluteString)' of '\(resolved.url.absoluteString)' is not media FFmpeg can read",
                cause: AVErrorCode.invalidData)
        }
        timeline.openDone = .now

        if demux.findStreamInfo { try input.findStreamInfo() }
        timeline.probeDone = .now

        guard let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO),
              let video = input.streams.first(where: { $0.index == videoIndex }) else {
            throw ReelError(.noVideoStream, "'\(url.absoluteString)' has no video stream")
        }
        var audio: MediaInput.Stream?
        if includeAudio, deferred == nil, let index = input.bestStream(AVMEDIA_TYPE_AUDIO) ?? input.firstStream(.audio) {
            audio = input.streams.first { $0.index == index }
        }
        return OpenedMedia(input: input, resolved: resolved, video: video, audio: audio,
                           annexB: try AnnexBFilter.forStream(video), deferredAudio: includeAudio ? deferred : nil)
    }

    /// Opens the audio playlist Reel wrote for `resolved` as an input of its own, through a bridge
    /// like the video's (same sources, log and cancellation). Blocking: the playback's thread.
    func openAudio(_ audio: DeferredAudio) throws -> (MediaInput, MediaInput.Stream)? {
        let bridge = InputBridge(factory: factory, cancellation: cancellation, input: audio.topLevel, resolved: audio.resolved,
                                 log: log, budget: failureBudget, adaptive: false, cmcd: cmcd)
        guard let url = URL(string: audio.url) else { return nil }
        var resolved = audio.resolved
        resolved.url = url
        resolved.content = .playlist(bytes: audio.playlist, demuxer: "hls")
        let (top, demuxer) = try topLevel(resolved, bridge: bridge)
        let input = try MediaInput(url: audio.url, top: top, formatName: demuxer, options: demux, bridge: bridge)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) ?? input.firstStream(.audio),
              let stream = input.streams.first(where: { $0.index == index }) else { return nil }
        input.discardAll(except: [index])
        return (input, stream)
    }

    /// The top-level bytes the demuxer reads: Reel's playlist text from memory, or the media
    /// stream the resolver already opened (its sniffed prefix replayed first).
    private func topLevel(_ resolved: ResolvedInput, bridge: InputBridge) throws -> (SourceIO, demuxer: String?) {
        switch resolved.content {
        case .playlist(let bytes, let name):
            let memory = MemoryDataSource(bytes)
            let spec = DataSpec(url: resolved.url, kind: .playlist)
            _ = try memory.open(spec)
            let io = SourceIO(source: memory, spec: spec, length: Int64(bytes.count),
                              reopen: { next in
                                  let again = MemoryDataSource(bytes)
                                  _ = try again.open(next)
                                  return again
                              }, onError: { bridge.recordError($0) }, onProgress: { bridge.bytesRead += Int64($0) }, onClose: { _ in })
            return (io, name)
        case .media(let source, let length):
            let spec = DataSpec(url: resolved.url, kind: .media)
            let factory = self.factory
            let cancellation = self.cancellation
            let log = self.log
            let io = SourceIO(source: source, spec: spec, length: length,
                              reopen: { next in
                                  let fresh = factory.makeDataSource(cancellation: cancellation)
                                  _ = try fresh.open(next)
                                  return fresh
                              },
                              onError: { bridge.recordError($0) }, onProgress: { bridge.bytesRead += Int64($0) },
                              onClose: { io in for metrics in io.finishedMetrics { log.record(metrics) } })
            return (io, nil)
        }
    }
}

/// An audio rendition left out of an input's first open (`MediaOpener.deferAudio`): its playlist
/// as Reel wrote it, to open once the first video frame is out.
struct DeferredAudio {
    var url: String
    var playlist: [UInt8]
    var opener: MediaOpener
    var topLevel: URL
    var resolved: ResolvedInput

    /// Opens it: the input and its audio stream, or nil when it has none.
    func open() throws -> (MediaInput, MediaInput.Stream)? { try opener.openAudio(self) }
}

/// An input open for decoding: the demuxer (with its bridge), what resolving it learned, the
/// chosen streams, and the video's conversion to Annex B. Used on the thread that opened it.
final class OpenedMedia {
    let input: MediaInput
    let resolved: ResolvedInput
    let video: MediaInput.Stream
    /// The audio stream chosen, when audio was wanted and there is one.
    let audio: MediaInput.Stream?
    /// Converts the video's packets from MP4's H.264 to Annex B (`PacketReader(_:)` applies it);
    /// nil when they are Annex B already.
    let annexB: AnnexBFilter?
    /// The audio rendition to open after the first frame, when it was left out of the open.
    let deferredAudio: DeferredAudio?

    init(input: MediaInput, resolved: ResolvedInput, video: MediaInput.Stream, audio: MediaInput.Stream?,
         annexB: AnnexBFilter?, deferredAudio: DeferredAudio? = nil) {
        self.input = input
        self.resolved = resolved
        self.video = video
        self.audio = audio
        self.annexB = annexB
        self.deferredAudio = deferredAudio
    }

    var bridge: InputBridge { input.bridge }

    /// What a video decoder opens with for the packets `PacketReader(_:)` reads: the stream's own
    /// parameters, or the Annex B ones (no extradata) when they are converted.
    var videoParameters: UnsafePointer<AVCodecParameters> { annexB?.parameters ?? video.codecParameters }

    /// A copy of `videoParameters`, for a pooled decoder on another thread.
    func videoStreamParameters() throws -> StreamParameters {
        try StreamParameters(copying: videoParameters, timeBase: video.timeBase)
    }

    /// Nominal duration of one video frame (1/30 s when the stream does not say).
    var frameInterval: Duration { .seconds(1 / (video.averageFrameRate ?? 30)) }
}
