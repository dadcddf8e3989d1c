import Foundation
import ReelCore
import ReelNet
import ReelSplash
import ReelTestSupport
import Testing
@testable import ReelLaunch

/// The launch state on disk: what is written comes back, a corrupt database is replaced with a
/// warning, damaged and orphan asset files are dropped, nobody else's files are touched.
@Suite("Launch state")
struct LaunchStateTests {
    func withFolder<T>(_ body: (LaunchStateFolder) throws -> T) throws -> T {
        let scratch = try makeScratchFolder("reel-launch-state")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try body(LaunchStateFolder(directory: scratch.appendingPathComponent("state")))
    }

    @Test func whatIsWrittenComesBack() throws {
        try withFolder { folder in
            let warnings = WarningLog()
            let first = folder.open(logger: warnings.logger)
            let store = try #require(first.store)
            var lifecycle = LaunchLifecycle()
            lifecycle.launches = 3
            lifecycle.lastEventAt = date("2026-11-24T08:00:00Z")
            lifecycle.sessionStart = date("2026-11-24T07:59:00Z")
            lifecycle.crashGuardPending = true
            let bytes = try LaunchSamples.bytes("snowfall.json")
            let name = folder.fileName(for: "https://cdn.example/snowfall.json", taken: [])
            try folder.writeAsset(bytes, name: name)
            let config = try LaunchSamples.bytes("splash-config.json")
            var changes = LaunchStateChanges(lifecycle: lifecycle)
            changes.displays = [("snowfall", date("2026-11-24T07:59:00Z"))]
            changes.crashes = (0..<40).map { CrashRecord(time: date("2026-11-24T00:00:00Z").addingTimeInterval(Double($0)), sessionSeconds: Double($0)) }
            changes.configuration = StoredConfiguration(url: "https://cdn.example/splash-config.json", fetchedAt: date("2026-11-24T08:00:00Z"), body: config)
            changes.upserts = [
                StoredAsset(url: "https://cdn.example/snowfall.json", file: name, bytes: bytes.count, checksum: XXHash64.hash(bytes), status: .valid),
                StoredAsset(url: "https://cdn.example/fast.json", file: nil, bytes: 10, checksum: 0, status: .invalid("60 fps")),
                StoredAsset(url: "https://cdn.example/gone.json", file: nil, bytes: 0, checksum: 0,
                            status: .failed("HTTP 404", at: date("2026-11-24T08:00:01Z"))),
            ]
            try store.apply(changes)
            store.close()

            let second = folder.open(logger: warnings.logger)
            defer { second.store?.close() }
            #expect(warnings.all.isEmpty, "\(warnings.all)")
            #expect(second.state.lifecycle == lifecycle)
            #expect(second.state.lastDisplayed == ["snowfall": date("2026-11-24T07:59:00Z")])
            #expect(second.state.crashes.count == LaunchState.crashesKept)
            #expect(second.state.crashes.last?.sessionSeconds == 39)
            #expect(second.configuration?.entries.map(\.id) == ["snowfall", "lanterns", "black-friday"])
            #expect(second.configuration?.fetchedAt == date("2026-11-24T08:00:00Z"))
            #expect(second.assets.mapValues(\.status) == [
                "https://cdn.example/snowfall.json": .valid,
                "https://cdn.example/fast.json": .invalid("60 fps"),
                "https://cdn.example/gone.json": .failed("HTTP 404", at: date("2026-11-24T08:00:01Z")),
            ])
            #expect(folder.readAsset(name) == bytes)
        }
    }

    @Test(arguments: ["garbage", "sqlite-other-layout"])
    func aCorruptDatabaseIsReplacedWithAWarning(kind: String) throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(at: folder.directory, withIntermediateDirectories: true)
            if kind == "garbage" {
                try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: folder.databasePath))
            } else {
                let other = try LaunchStateStore(path: folder.databasePath)
                other.close()
                // Another program's database at the same path: same file type, other tables.
                let foreign = ForeignDatabase(path: folder.databasePath)
                try foreign.replaceTables()
            }
            let warnings = WarningLog()
            let opened = folder.open(logger: warnings.logger)
            defer { opened.store?.close() }
            #expect(warnings.all.count == 1)
            #expect(warnings.all.first?.contains("launch state '\(folder.databasePath)' is corrupt") == true, "\(warnings.all)")
            #expect(warnings.all.first?.contains("starting with an empty state") == true)
            let store = try #require(opened.store, "the replaced database is usable")
            #expect(opened.state == LaunchState())
            var lifecycle = LaunchLifecycle()
            lifecycle.launches = 1
            try store.apply(LaunchStateChanges(lifecycle: lifecycle))
            #expect(try store.load().state.lifecycle.launches == 1)
        }
    }

    @Test func damagedOrphanAndLeftoverFilesGoAndForeignFilesStay() throws {
        try withFolder { folder in
            let warnings = WarningLog()
            let first = folder.open(logger: warnings.logger)
            let store = try #require(first.store)
            let bytes = try LaunchSamples.bytes("lanterns.json")
            let damaged = folder.fileName(for: "https://cdn.example/damaged.json", taken: [])
            let kept = folder.fileName(for: "https://cdn.example/kept.json", taken: [])
            let orphan = folder.fileName(for: "https://cdn.example/orphan.json", taken: [])
            for name in [damaged, kept, orphan] { try folder.writeAsset(bytes, name: name) }
            try store.apply(LaunchStateChanges(upserts: [
                StoredAsset(url: "https://cdn.example/damaged.json", file: damaged, bytes: bytes.count, checksum: XXHash64.hash(bytes), status: .valid),
                StoredAsset(url: "https://cdn.example/kept.json", file: kept, bytes: bytes.count, checksum: XXHash64.hash(bytes), status: .valid),
            ]))
            store.close()
            var flipped = bytes
            flipped[100] ^= 0x01
            try Data(flipped).write(to: URL(fileURLWithPath: folder.assetPath(damaged)))
            let leftover = folder.temporaryPath + "/" + orphan + ".tmp"
            try Data(bytes).write(to: URL(fileURLWithPath: leftover))
            let foreign = [folder.assetPath("notes.txt"), folder.temporaryPath + "/notes.tmp", folder.directory.appendingPathComponent("readme").path]
            for path in foreign { try Data("mine".utf8).write(to: URL(fileURLWithPath: path)) }

            let second = folder.open(logger: warnings.logger)
            defer { second.store?.close() }
            #expect(warnings.all == ["launch state: cached asset 'https://cdn.example/damaged.json' is missing or damaged; it will be downloaded again"])
            #expect(Array(second.assets.keys) == ["https://cdn.example/kept.json"])
            #expect(folder.assetNames() == [kept])
            #expect(!FileManager.default.fileExists(atPath: leftover))
            for path in foreign { #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8), "\(path)") }
            #expect(try second.store?.load().assets.map(\.url) == ["https://cdn.example/kept.json"])
        }
    }

    @Test func aFolderThatCannotBeMadeKeepsTheStateInMemory() throws {
        let scratch = try makeScratchFolder("reel-launch-state")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let warnings = WarningLog()
        let opened = LaunchStateFolder(directory: file.appendingPathComponent("state")).open(logger: warnings.logger)
        #expect(opened.store == nil)
        #expect(warnings.all.count == 1 && warnings.all.first?.hasPrefix("launch state kept in memory:") == true, "\(warnings.all)")
    }

    @Test func fileNamesNeverClash() throws {
        try withFolder { folder in
            let first = folder.fileName(for: "https://cdn.example/a.json", taken: [])
            let second = folder.fileName(for: "https://cdn.example/a.json", taken: [first])
            #expect(first != second)
            #expect(LaunchStateFolder.isAssetName(first) && LaunchStateFolder.isAssetName(second))
        }
    }
}

extension LaunchStateTests {
    @Test(arguments: [
        ("/srv/state", ["XDG_STATE_HOME": "/x", "HOME": "/home/a"], "/srv/state"),
        ("", ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"], "/x/state/reel/launch"),
        ("", ["XDG_STATE_HOME": "relative", "HOME": "/home/a"], "/home/a/.local/state/reel/launch"),
        ("", ["HOME": "/home/a"], "/home/a/.local/state/reel/launch"),
    ])
    func theDefaultFolder(setting: String, environment: [String: String], expected: String) throws {
        let resolution = try ConfigResolver().resolve(setting.isEmpty ? [] : [.assignments(["launch.stateDirectory=\(setting)"])])
        #expect(LaunchStateFolder.defaultDirectory(resolution.config, environment: environment).path == expected)
    }
}
