import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// Runs the 60 videojs m3u8-parser cases against Reel's HLS parser, comparing the fields the
/// conformance README lists, under the policy in docs/manifest-policy.md.
@Suite(.enabled(if: ManifestConformanceData.runs, ManifestConformanceData.disabledComment))
struct ManifestConformanceHLSTests {
    static let baseURL = URL(string: "https://conformance.invalid/hls/playlist.m3u8")!

    /// What Reel does with a case where it differs from "parse and match the expected JSON".
    struct Expectation {
        /// Reel rejects the input at this line with a message containing `mentioning`.
        var rejectLine: Int?
        var mentioning: String?
        /// After the rejection check, this repair of the input must match the expected JSON.
        var repair: Repair?
        /// Lines that must carry a warning.
        var warningLines: [Int] = []
        /// Reel's target duration where it derives one (the expected JSON has none).
        var targetDuration: Int?
        /// Reel's duration for a segment index where it keeps the written value.
        var durations: [Int: Double] = [:]
        /// The case is not a playlist at all (`ManifestLoader.parse` says `.notAPlaylist`).
        var notAPlaylist = false

        enum Repair {
            case dropFirstLine, prependHeader
            case insert(before: Int, String)
        }
    }

    /// The policy, one entry per case that is not a plain match (docs/manifest-policy.md).
    static let policy: [String: Expectation] = [
        // Well-formed cases that FFmpeg 5.1 would not open as written.
        "empty": Expectation(notAPlaylist: true),
        "master": Expectation(rejectLine: 1, mentioning: "#EXTM3U is on line 2", repair: .dropFirstLine),
        "start": Expectation(rejectLine: 1, mentioning: "expected #EXTM3U", repair: .prependHeader),
        "byteRange": Expectation(warningLines: [12]),
        "extinf": Expectation(
            rejectLine: 56, mentioning: "has no #EXTINF", repair: .insert(before: 56, "#EXTINF:10,"), warningLines: [9]),
        "llhls-byte-range": Expectation(warningLines: [7]),
        // Error-recovery cases: recovered.
        "allowCacheInvalid": Expectation(),
        "emptyAllowCache": Expectation(),
        "invalidAllowCache": Expectation(),
        "emptyPlaylistType": Expectation(warningLines: [2]),
        "invalidPlaylistType": Expectation(warningLines: [2]),
        "extXPlaylistTypeInvalidPlaylist": Expectation(warningLines: [2]),
        "emptyTargetDuration": Expectation(warningLines: [2]),
        "invalidTargetDuration": Expectation(warningLines: [2], targetDuration: 10),

        "versionInvalid": Expectation(warningLines: [3]),
        "manifestExtXEndlistEarly": Expectation(),
        "missingEndlist": Expectation(),
        "missingMediaSequence": Expectation(),
        "playlistMediaSequenceHigher": Expectation(),
        "zeroDuration": Expectation(durations: [0: 0]),
        // Error-recovery cases: rejected.
        "emptyMediaSequence": Expectation(rejectLine: 3, mentioning: "EXT-X-MEDIA-SEQUENCE '' is not a decimal integer"),
        "invalidMediaSequence": Expectation(
            rejectLine: 3, mentioning: "EXT-X-MEDIA-SEQUENCE 'gobblegobble' is not a decimal integer"),
        "negativeMediaSequence": Expectation(rejectLine: 3, mentioning: "EXT-X-MEDIA-SEQUENCE '-11' is not a decimal integer"),
        "twoMediaSequences": Expectation(rejectLine: 4, mentioning: "second #EXT-X-MEDIA-SEQUENCE"),
        "liveMissingSegmentDuration": Expectation(rejectLine: 8, mentioning: "has no #EXTINF"),
        "missingSegmentDuration": Expectation(rejectLine: 8, mentioning: "has no #EXTINF"),
        "missingExtinf": Expectation(rejectLine: 8, mentioning: "has no #EXTINF"),
        "multipleTargetDurations": Expectation(rejectLine: 2, mentioning: "'001.ts' has no #EXTINF"),
        "manifestNoExtM3u": Expectation(rejectLine: 1, mentioning: "expected #EXTM3U"),
        "streamInfInvalid": Expectation(rejectLine: 1, mentioning: "#EXTM3U is on line 2"),
        "whiteSpace": Expectation(rejectLine: 8, mentioning: "starts with whitespace"),
        "manifestExtTTargetdurationNegative": Expectation(
            rejectLine: 2, mentioning: "#EXT-X-TARGETDURATION '-10' is out of range (FFmpeg 5.1 refuses the playlist)"),
    ]

    @Test func suiteIsComplete() {
        let cases = ManifestConformanceData.hlsCases
        #expect(cases.count == 60, "expected 60 HLS cases in \(ManifestConformanceData.directory.path)")
        let recovery = cases.filter(\.isErrorRecovery).map(\.name)
        #expect(recovery.count == 26)
        // Every error-recovery case has a written policy.
        #expect(recovery.filter { Self.policy[$0] == nil }.isEmpty)
    }

    @Test(arguments: ManifestConformanceData.hlsCases)
    func conformance(_ testCase: ManifestConformanceData.Case) throws {
        let expectation = Self.policy[testCase.name] ?? Expectation()
        var input = try testCase.inputData()
        if expectation.notAPlaylist {
            let error = #expect(throws: ReelError.self) {
                try ManifestLoader.parse(input, url: Self.baseURL)
            }
            #expect(error?.code == .notAPlaylist)
            #expect(error?.message.contains("empty") == true)
            return
        }
        if let line = expectation.rejectLine {
            let error = #expect(throws: ReelError.self) {
                try HLSPlaylistParser.parse(input, url: Self.baseURL)
            }
            #expect(error?.code == .malformedPlaylist)
            let message = error?.message ?? ""
            #expect(message.contains("\(Self.baseURL.absoluteString) line \(line):"), "\(message)")
            if let mentioning = expectation.mentioning {
                #expect(message.contains(mentioning), "\(message)")
            }
            guard let repair = expectation.repair else { return }
            let text = String(decoding: input, as: UTF8.self)
            switch repair {
            case .dropFirstLine: input = Data(text.drop { $0 != "\n" }.dropFirst().utf8)
            case .prependHeader: input = Data(("#EXTM3U\n" + text).utf8)
            case .insert(let line, let inserted):
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                lines.insert(inserted, at: line - 1)
                input = Data(lines.joined(separator: "\n").utf8)
            }
        }
        let manifest = try HLSPlaylistParser.parse(input, url: Self.baseURL)
        let expected = try testCase.expected()
        var mismatches: [String] = []
        switch manifest {
        case .media(let playlist):
            #expect(expected["playlists"] == nil, "Reel parsed a media playlist where a master was expected")
            mismatches = Self.compare(playlist, expected, expectation)
            let warned = Set(playlist.warnings.compactMap(\.line))
            for line in expectation.warningLines {
                #expect(warned.contains(line), "no warning for line \(line): \(playlist.warnings)")
            }
        case .master(let master):
            #expect(expected["playlists"] != nil, "Reel parsed a master playlist where a media playlist was expected")
            mismatches = Self.compare(master, expected)
            let warned = Set(master.warnings.compactMap(\.line))
            for line in expectation.warningLines {
                #expect(warned.contains(line), "no warning for line \(line): \(master.warnings)")
            }
        case .dash:
            Issue.record("HLS input parsed as DASH")
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    // MARK: Comparison

    static func compare(_ playlist: MediaPlaylist, _ expected: [String: Any], _ expectation: Expectation) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ field: String, _ ours: T, _ theirs: T) {
            if ours != theirs { out.append("\(field): Reel \(ours), expected \(theirs)") }
        }
        if let target = expectation.targetDuration {
            check("targetDuration", playlist.targetDuration, target)
        } else if let target = expected["targetDuration"] as? Double {
            check("targetDuration", playlist.targetDuration, Int(target))
        }
        check("mediaSequence", playlist.mediaSequence, Int64((expected["mediaSequence"] as? Double) ?? 0))
        check(
            "discontinuitySequence", playlist.discontinuitySequence,
            Int64((expected["discontinuitySequence"] as? Double) ?? 0))
        check("endList", playlist.endList, (expected["endList"] as? Bool) ?? false)
        check("playlistType", playlist.playlistType?.rawValue, expected["playlistType"] as? String)
        let segments = expected["segments"] as? [[String: Any]] ?? []
        check("segment count", playlist.segments.count, segments.count)
        for (index, (ours, theirs)) in zip(playlist.segments, segments).enumerated() {
            let prefix = "segment \(index)"
            check("\(prefix) uri", ours.uri, theirs["uri"] as? String ?? "")
            if let duration = expectation.durations[index] ?? (theirs["duration"] as? Double),
                abs(ours.duration - duration) > 1e-6
            {
                out.append("\(prefix) duration: Reel \(ours.duration), expected \(duration)")
            }
            check("\(prefix) byterange", ours.byteRange, range(theirs["byterange"]))
            check("\(prefix) discontinuity", ours.discontinuity, (theirs["discontinuity"] as? Bool) ?? false)
            out += compareKey(ours.key, theirs["key"], "\(prefix) key")
            if let map = theirs["map"] as? [String: Any] {
                check("\(prefix) map uri", ours.initSection?.uri, map["uri"] as? String)
                check("\(prefix) map byterange", ours.initSection?.byteRange, range(map["byterange"]))
                out += compareKey(ours.initSection?.key, map["key"], "\(prefix) map key")
            } else if ours.initSection != nil {
                out.append("\(prefix) map: Reel has one, expected none")
            }
            if let milliseconds = theirs["programDateTime"] as? Double {
                if let date = ours.programDateTime {
                    let ourMilliseconds = date.timeIntervalSince1970 * 1000
                    if abs(ourMilliseconds - milliseconds) > 1 {
                        out.append("\(prefix) programDateTime: Reel \(ourMilliseconds), expected \(milliseconds)")
                    }
                } else {
                    out.append("\(prefix) programDateTime: Reel none, expected \(milliseconds)")
                }
            } else if ours.programDateTime != nil {
                out.append("\(prefix) programDateTime: Reel has one, expected none")
            }
        }
        return out
    }

    static func compareKey(_ ours: Key?, _ theirs: Any?, _ field: String) -> [String] {
        guard let theirs = theirs as? [String: Any] else {
            return ours == nil ? [] : ["\(field): Reel \(ours!.method), expected none"]
        }
        guard let ours else { return ["\(field): Reel none, expected \(theirs)"] }
        var out: [String] = []
        if ours.method != theirs["method"] as? String { out.append("\(field) method: \(ours.method)") }
        if ours.uri != theirs["uri"] as? String { out.append("\(field) uri: \(ours.uri)") }
        if let words = theirs["iv"] as? [Double] {
            var bytes: [UInt8] = []
            for word in words { withUnsafeBytes(of: UInt32(word).bigEndian) { bytes += $0 } }
            if ours.iv != Data(bytes) { out.append("\(field) iv: Reel \(ours.iv.map(Key.hexString) ?? "none")") }
        } else if ours.iv != nil {
            out.append("\(field) iv: Reel has one, expected none")
        }
        return out
    }

    static func range(_ value: Any?) -> ByteRange? {
        guard let value = value as? [String: Any], let length = value["length"] as? Double,
            let offset = value["offset"] as? Double
        else { return nil }
        return ByteRange(offset: Int64(offset), length: Int64(length))
    }

    static func compare(_ master: MasterPlaylist, _ expected: [String: Any]) -> [String] {
        var out: [String] = []
        let playlists = expected["playlists"] as? [[String: Any]] ?? []
        if master.variants.count != playlists.count {
            out.append("variant count: Reel \(master.variants.count), expected \(playlists.count)")
        }
        for (index, (ours, theirs)) in zip(master.variants, playlists).enumerated() {
            let attributes = theirs["attributes"] as? [String: Any] ?? [:]
            let prefix = "variant \(index)"
            if ours.uri != theirs["uri"] as? String { out.append("\(prefix) uri: \(ours.uri)") }
            if Double(ours.bandwidth) != attributes["BANDWIDTH"] as? Double {
                out.append("\(prefix) BANDWIDTH: \(ours.bandwidth)")
            }
            let resolution = (attributes["RESOLUTION"] as? [String: Any]).flatMap { value -> Resolution? in
                guard let width = value["width"] as? Double, let height = value["height"] as? Double else { return nil }
                return Resolution(width: Int(width), height: Int(height))
            }
            if ours.resolution != resolution { out.append("\(prefix) RESOLUTION: \(String(describing: ours.resolution))") }
            if ours.codecs != attributes["CODECS"] as? String { out.append("\(prefix) CODECS: \(ours.codecs ?? "none")") }
            if ours.audioGroup != attributes["AUDIO"] as? String { out.append("\(prefix) AUDIO: \(ours.audioGroup ?? "none")") }
            if ours.subtitlesGroup != attributes["SUBTITLES"] as? String {
                out.append("\(prefix) SUBTITLES: \(ours.subtitlesGroup ?? "none")")
            }
        }
        let groups = expected["mediaGroups"] as? [String: Any] ?? [:]
        var expectedCount = 0
        for (typeName, value) in groups {
            guard let type = AlternateMedia.MediaType(rawValue: typeName) else {
                out.append("unknown media group type \(typeName)")
                continue
            }
            for (groupID, names) in value as? [String: Any] ?? [:] {
                for (name, entryValue) in names as? [String: Any] ?? [:] {
                    expectedCount += 1
                    let entry = entryValue as? [String: Any] ?? [:]
                    let prefix = "\(typeName)/\(groupID)/\(name)"
                    guard let ours = master.media.first(where: { $0.type == type && $0.groupID == groupID && $0.name == name })
                    else {
                        out.append("\(prefix): missing")
                        continue
                    }
                    if ours.language != entry["language"] as? String { out.append("\(prefix) language") }
                    if ours.isDefault != (entry["default"] as? Bool ?? false) { out.append("\(prefix) default") }
                    if ours.autoselect != (entry["autoselect"] as? Bool ?? false) { out.append("\(prefix) autoselect") }
                    if ours.uri != entry["uri"] as? String { out.append("\(prefix) uri: \(ours.uri ?? "none")") }
                    if ours.instreamID != entry["instreamId"] as? String { out.append("\(prefix) instreamId") }
                }
            }
        }
        if master.media.count != expectedCount {
            out.append("media count: Reel \(master.media.count), expected \(expectedCount)")
        }
        return out
    }
}
