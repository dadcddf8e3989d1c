import ArgumentParser
import Foundation
import ReelCore
import ReelStore
import ReelNet

/// `reel cache stats|verify|clear`: look after the disk cache.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, check or empty the disk cache.",
        discussion: """
            The cache holds playlists, init sections, segments, keys and images fetched over http(s), \
            each checked against its length and checksum when read. A cache folder that can be read \
            but not written (a full disk, a read-only mount) opens read-only with a warning: stats and \
            verify work, clear removes what it can (on a full disk, everything). Exit status: 0 \
            success, 6 cache (folder not usable or in use by another reel process; verify found bad \
            entries and was not asked to repair them, or cannot repair a read-only cache; clear \
            could not remove the files).
            """,
        subcommands: [Stats.self, Verify.self, Clear.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Entries, bytes, partial entries and the hit ratio.",
            discussion: """
                JSON: {directory, maxBytes, entries, bytes, indexBytes, partialEntries, liveEntries, \
                prefetchUnreadBytes, hits, misses, hitBytes, missBytes, hitRatio, readOnly}. bytes are \
                content bytes; indexBytes the index files; hitRatio is hits / (hits + misses) over the \
                cache's life, null before the first read; readOnly says why the cache cannot be \
                written (null when it can).
                """)

        @OptionGroup var cache: CacheOptions
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("cache stats") {
                let cache = try await self.cache.openOrThrow(try config.resolve())
                let stats = cache.statistics()
                await cache.closeAsync()
                print(json ? try CLIOutput.json(CacheStatsOutput(stats)) : CacheStatsOutput(stats).text)
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-read every entry and check its length and checksum.",
            discussion: """
                Reports entries whose file is missing, has the wrong length or fails its checksum, and \
                content files no entry names. With --repair they are removed (a later read refetches \
                them). Exits with status 6 when bad entries remain. JSON: {directory, checked, bytes, \
                bad: [{key, file, reason}], orphanFiles, removed, repaired, clean}.
                """)

        @OptionGroup var cache: CacheOptions
        @Flag(help: "Remove bad entries and orphan files.") var repair = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("cache verify") {
                let cache = try await self.cache.openOrThrow(try config.resolve())
                let repair = self.repair
                let report = try await BlockingPool.shared.run { cache.verify(repair: repair) }
                await cache.closeAsync()
                print(json ? try CLIOutput.json(CacheVerifyOutput(report)) : CacheVerifyOutput(report).text)
                if repair, !report.repaired, !report.isClean, let reason = cache.readOnlyReason {
                    throw ReelError(.cacheIO, "cannot repair cache '\(report.directory)': it is read-only (\(reason))")
                }
                if !report.isClean {
                    throw ReelError(.cacheCorrupt, "\(report.bad.count + report.orphanFiles) bad entries in cache '\(report.directory)'; run 'reel cache verify --repair' to remove them")
                }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every entry and reset the hit counters.",
            discussion: "JSON: {directory, entries, bytes}: what was removed.")

        @OptionGroup var cache: CacheOptions
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.bootstrap()
            try await CLIOutput.run("cache clear") {
                let cache = try await self.cache.openOrThrow(try config.resolve())
                let before = cache.statistics()
                do {
                    try await BlockingPool.shared.run { try cache.clear() }
                } catch {
                    await cache.closeAsync()
                    throw error
                }
                await cache.closeAsync()
                let output = CacheClearOutput(directory: before.directory, entries: before.entries, bytes: before.bytes)
                print(json ? try CLIOutput.json(output)
                      : "Cleared \(output.entries) entries (\(Human.bytes(output.bytes))) from \(output.directory)")
            }
        }
    }
}

/// `reel cache stats --json`.
struct CacheStatsOutput: Encodable {
    var directory: String
    var maxBytes, bytes, indexBytes, prefetchUnreadBytes, hits, misses, hitBytes, missBytes: Int64
    var entries, partialEntries, liveEntries: Int
    var hitRatio: Double?
    /// Why the cache cannot be written, or nil.
    var readOnly: String?

    init(_ stats: CacheStatistics) {
        directory = stats.directory
        maxBytes = stats.maxBytes
        entries = stats.entries
        bytes = stats.bytes
        indexBytes = stats.indexBytes
        partialEntries = stats.partialEntries
        liveEntries = stats.liveEntries
        prefetchUnreadBytes = stats.prefetchUnreadBytes
        hits = stats.counters.hits
        misses = stats.counters.misses
        hitBytes = stats.counters.hitBytes
        missBytes = stats.counters.missBytes
        hitRatio = stats.counters.hitRatio
        readOnly = stats.readOnlyReason
    }

    var text: String {
        let ratio = hitRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "n/a"
        return """
            Cache \(directory): \(entries) entries (\(partialEntries) partial, \(liveEntries) live), \
            \(Human.bytes(bytes)) + index \(Human.bytes(indexBytes)) of \(Human.bytes(maxBytes))
            Hits \(hits), misses \(misses) (hit ratio \(ratio)); \(Human.bytes(hitBytes)) from the cache, \
            \(Human.bytes(missBytes)) from the network; \(Human.bytes(prefetchUnreadBytes)) prefetched and not yet played
            """ + (readOnly.map { "\nRead-only: \($0)" } ?? "")
    }
}

/// `reel cache verify --json`.
struct CacheVerifyOutput: Encodable {
    var directory: String
    var checked: Int
    var bytes: Int64
    var bad: [CacheVerifyReport.BadEntry]
    var orphanFiles: Int
    var removed: Int
    var repaired: Bool
    var clean: Bool

    init(_ report: CacheVerifyReport) {
        directory = report.directory
        checked = report.checked
        bytes = report.bytes
        bad = report.bad
        orphanFiles = report.orphanFiles
        removed = report.removed
        repaired = report.repaired
        clean = report.isClean
    }

    var text: String {
        var lines = ["Checked \(checked) entries (\(Human.bytes(bytes))) in \(directory): \(bad.count) bad, \(orphanFiles) orphan files"
                     + (repaired ? "; removed \(removed)" : "")]
        for entry in bad { lines.append("  bad: \(entry.key) (\(entry.file)): \(entry.reason)") }
        return lines.joined(separator: "\n")
    }
}

/// `reel cache clear --json`.
struct CacheClearOutput: Encodable {
    var directory: String
    var entries: Int
    var bytes: Int64
}
