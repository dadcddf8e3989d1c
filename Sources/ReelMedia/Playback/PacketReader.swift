import ReelCore

/// Reads packets from a demuxer for `reel play` and for a feed's players alike: converts H.264
/// video from MP4 to Annex B when the input needs it (`AnnexBFilter`), counts corrupt packets,
/// notes read failures and reads on through mid-stream damage, and gives up (with the most
/// telling error) after 16 failures in a row.
struct PacketReader {
    enum Result: Equatable {
        case packet
        case endOfStream
        /// The read failed; it was noted, and the caller reads again.
        case skipped
    }

    let input: MediaInput

    /// Why the input's failure budget ended the play, or nil.
    var gaveUp: ReelError? { input.bridge.gaveUp }
    /// Converts the video stream's packets to Annex B; nil when they are Annex B already.
    let annexB: AnnexBFilter?
    private(set) var corruptPackets = 0
    private var consecutiveFailures = 0
    static let failuresBeforeGivingUp = 16

    init(input: MediaInput, annexB: AnnexBFilter? = nil) {
        self.input = input
        self.annexB = annexB
    }

    /// Reads `media`'s packets, its video as its decoders expect it.
    init(_ media: OpenedMedia) { self.init(input: media.input, annexB: media.annexB) }

    /// Reads the next packet into `packet`. The corresponding C function is `av_read_frame`.
    mutating func read(into packet: Packet, notes: inout NoteList) throws -> Result {
        guard let annexB else { return try readInput(into: packet, notes: &notes) }
        while true {
            switch annexB.receive(into: packet) {
            case .packet:
                return .packet
            case .endOfStream:
                return .endOfStream
            case .failed(let status):
                // The filter dropped a packet it could not parse, as a decoder would reject it;
                // the demuxer itself reads on fine, so this does not count towards giving up.
                notes.add("converting a packet to Annex B failed: \(AVErrorCode(status))")
                return .skipped
            case .needsInput:
                break
            }
            switch try readInput(into: packet, notes: &notes) {
            case .packet where annexB.accepts(packet):
                try annexB.send(packet)
            case .endOfStream:
                // Drains the filter; it then answers `.endOfStream`.
                try annexB.send(nil)
            case let other:
                return other
            }
        }
    }

    private mutating func readInput(into packet: Packet, notes: inout NoteList) throws -> Result {
        switch try input.read(into: packet) {
        case .endOfStream:
            return .endOfStream
        case .failed(let status):
            consecutiveFailures += 1
            notes.add("reading a packet failed: \(AVErrorCode(status))")
            if consecutiveFailures >= Self.failuresBeforeGivingUp {
                throw MediaInput.failure(bridge: input.bridge, url: input.url, status: status, during: "reading")
            }
            return .skipped
        case .packet:
            consecutiveFailures = 0
            if packet.isCorrupt { corruptPackets += 1 }
            return .packet
        }
    }
}
