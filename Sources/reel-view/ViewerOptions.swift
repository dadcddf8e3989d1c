import Foundation
import CSDL2
import ReelCore
import ReelFeed

/// The command line checked: every option's value is valid here, or the viewer exits 2 naming it
/// before a window opens.
struct ViewerOptions: Sendable {
    /// A key to press once the window has been open `time` seconds (`--key`).
    struct KeyPress: Sendable {
        var time: Double
        var name: String
        var key: SDL_Keycode
    }

    /// A screenshot to take once the window has been open `time` seconds.
    struct Screenshot: Sendable {
        var time: Double
        var path: String
    }

    var feedURL: URL?
    var serve: String
    var profile: String
    var configSources: [ConfigSource]
    var size: Size?
    var scale: Double
    var trace: ScrollTrace?
    var record: String?
    var screenshots: [Screenshot]
    var keys: [KeyPress]
    var exitAfter: Double?
    var json: Bool
    var eventsFile: String?
    var hud: Bool
    var launch: Bool
    var launchState: URL
    var launchTime: Date?
    var fps: Double
    var offscreen: Bool
    var renderer: String
    var logLevel: String

    init(_ command: ReelView) throws {
        if let feed = command.feed {
            guard let url = URL(string: feed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false else {
                throw ReelError(.invalidInput, "--feed must be an http(s) URL of a catalog, such as http://127.0.0.1:8080/video-feed.json; got '\(feed)'")
            }
            feedURL = url
        }
        serve = command.serve
        profile = command.profile
        configSources = command.configFiles.map { ConfigSource.file($0) }
            + (command.assignments.isEmpty ? [] : [.assignments(command.assignments)])
        if let text = command.size {
            guard let size = Size(parsing: text), size.width >= 120, size.height >= 120, size.width <= 4096, size.height <= 4096 else {
                throw ReelError(.invalidInput, "--size must be WIDTHxHEIGHT in points between 120 and 4096, such as 390x844; got '\(text)'")
            }
            self.size = size
        }
        guard command.scale.isFinite, command.scale >= 0.5, command.scale <= 4 else {
            throw ReelError(.invalidInput, "--scale must be in [0.5, 4]; got \(command.scale)")
        }
        scale = command.scale
        trace = try command.trace.map { try ScrollTrace.load(path: $0) }
        if let record = command.record {
            guard ["mp4", "mkv", "mov"].contains(URL(fileURLWithPath: record).pathExtension.lowercased()) else {
                throw ReelError(.invalidInput, "--record '\(record)': give a .mp4, .mkv or .mov file, such as session.mp4")
            }
            try Self.checkWritable(record, option: "--record")
        }
        record = command.record
        screenshots = try command.screenshots.map { text in
            guard let colon = text.firstIndex(of: ":"), let time = Double(text[..<colon]), time.isFinite, time >= 0,
                  case let path = String(text[text.index(after: colon)...]), !path.isEmpty else {
                throw ReelError(.invalidInput, "--screenshot must be SECONDS:FILE.png, such as 2.5:shot.png; got '\(text)'")
            }
            try Self.checkWritable(path, option: "--screenshot")
            return Screenshot(time: time, path: path)
        }.sorted { $0.time < $1.time }
        keys = try command.keys.map { text in
            guard let colon = text.firstIndex(of: ":"), let time = Double(text[..<colon]), time.isFinite, time >= 0,
                  case let name = String(text[text.index(after: colon)...]), !name.isEmpty,
                  case let key = SDL_GetKeyFromName(name), key != SDL_Keycode(SDLK_UNKNOWN.rawValue) else {
                throw ReelError(.invalidInput, "--key must be SECONDS:KEY with one of SDL's key names, such as 3:m or 5:space; got '\(text)'")
            }
            return KeyPress(time: time, name: name, key: key)
        }.sorted { $0.time < $1.time }
        if let exitAfter = command.exitAfter, !(exitAfter > 0 && exitAfter <= 86_400) {
            throw ReelError(.invalidInput, "--exit-after must be in (0, 86400] seconds; got \(exitAfter)")
        }
        exitAfter = command.exitAfter
        if let last = screenshots.last, let exitAfter, last.time > exitAfter {
            throw ReelError(.invalidInput, "--screenshot at \(last.time) s comes after --exit-after \(exitAfter) s")
        }
        json = command.json
        eventsFile = command.eventsFile
        if let eventsFile { try Self.checkWritable(eventsFile, option: "--events") }
        hud = command.hud
        launch = !command.noLaunch
        if let folder = command.launchState {
            launchState = URL(fileURLWithPath: folder, isDirectory: true)
        } else {
            let environment = ProcessInfo.processInfo.environment
            let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.local/state"
            launchState = URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("reel-view/launch", isDirectory: true)
        }
        if let text = command.launchTime {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw ReelError(.invalidInput, "--launch-time must be an ISO 8601 time such as 2026-11-27T09:00:00Z; got '\(text)'")
            }
            launchTime = date
        }
        guard command.fps.isFinite, command.fps >= 10, command.fps <= 240 else {
            throw ReelError(.invalidInput, "--fps must be in [10, 240]; got \(command.fps)")
        }
        fps = command.fps
        offscreen = command.offscreen
        renderer = command.renderer
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(command.logLevel) else {
            throw ReelError(.invalidInput, "--log-level must be debug, info, warning or error; got '\(command.logLevel)'")
        }
        logLevel = command.logLevel
    }

    /// Fails now, naming the option, when `path`'s folder does not exist: better than a session
    /// lost at its end.
    private static func checkWritable(_ path: String, option: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ReelError(.invalidInput, "\(option) '\(path)': no folder '\(folder)' to write it in")
        }
    }
}
