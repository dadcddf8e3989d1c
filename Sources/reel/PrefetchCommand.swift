import ArgumentParser
import Foundation
import ReelCore
import ReelStore
import ReelNet

#if canImport(Glibc)
import Glibc
import ReelManifest
#endif

struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Fetch the start of videos into the disk cache.",
        discussion: """
            For each input: the manifests and the first N segments of the variant playback would \
            choose (the same selection as reel play, from the device.* settings), with their init \
            sections and keys; what is already cached is not fetched again. A later \
            `reel play --offline` plays them without the network. The inputs go through the \
            prefetcher: by rank (command-line order), at most --concurrency at once; on a \
            terminal one line shows the progress.

            An input whose manifests or segments the cache could not store (a full disk, a read-only \
            cache folder) fails with code cacheIO and lists them in notStored; once the cache stops \
            storing, the rest is not fetched.

            JSON: {inputs: [{url, variant, manifests: [item], items: [item], fetchedBytes, \
            cachedBytes}], fetchedBytes, cachedBytes, failures: [{url, code, message, notStored: \
            [item]}], concurrency, \
            category, ledger: {queued, started, completed, cancelled, failed, suspended, retried, \
            fetchedBytes, usedBytes, evictedUnreadBytes, unreadBytes, wastedBytes}}; \
            item = {url, kind, bytes, alreadyCached, range}. \
            Exit status: 0 success, 2 bad input, 3 network, 4 playlist or manifest, 6 cache \
            (when inputs fail, the first failure's).
            """)

    @Argument(help: "http(s) URLs of HLS playlists, DASH MPDs or media files.")
    var inputs: [String]

    @Option(help: "Segments to fetch per video. Default: prefetch.segments.<category> (prefetch.lowEndSegments on a low-end device).")
    var segments: Int?

    @Option(help: ArgumentHelp(
        "Transfers at once (1-64). Default: prefetch.maxConcurrent (prefetch.lowEndMaxConcurrent on a low-end device).",
        valueName: "k"))
    var concurrency: Int?

    @Option(help: ArgumentHelp("Priority category of the inputs: imminent, nearby, page or background.", valueName: "c"))
    var category = PrefetchCategory.imminent.rawValue

    @Option(help: ArgumentHelp("Rank of the first input inside its category; each later input ranks one more.", valueName: "r"))
    var rank = 0

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var cache: CacheOptions
    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one URL") }
        if let segments, segments < 0 { throw ValidationError("--segments must be 0 or more (got \(segments))") }
        if let concurrency, !(1...64).contains(concurrency) {
            throw ValidationError("--concurrency must be in 1...64 (got \(concurrency))")
        }
        if PrefetchCategory(rawValue: category) == nil {
            let names = PrefetchCategory.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--category must be one of \(names) (got '\(category)')")
        }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("prefetch") { try await execute() }
    }

    private func execute() async throws {
        var settings = try config.resolve()
        let urls = try inputs.map { text -> URL in
            let url = try InputLocation.parse(text)
            guard !url.isFileURL else {
                throw ReelError(.invalidInput, "'\(text)' is a local file; only http(s) inputs are cached")
            }
            return url
        }
        // Asking for it on the command line is prefetching on purpose, whatever prefetch.enabled says.
        settings.prefetch.enabled = true
        if let concurrency {
            settings.prefetch.maxConcurrent = concurrency
            settings.prefetch.lowEndMaxConcurrent = concurrency
        }
        let category = PrefetchCategory(rawValue: self.category) ?? .imminent
        var options = ReelStack.Options()
        options.cache = .folder(cache.location(settings))
        options.cacheMaxBytes = cache.limit(settings)
        options.requiresCache = true
        options.origin = .prefetch
        let (ids, outcomes, failures, ledger, cap) = try await ReelStack.with(config: settings, options: options) { stack in
            try await prefetch(urls, category: category, settings: settings, factory: stack.cacheFactory!)
        }
        // In command-line order.
        let failed = zip(ids, urls).compactMap { id, url in
            failures[id].map { PrefetchOutput.Failure(url: url, error: $0.error, notStored: $0.notStored) }
        }
        let output = PrefetchOutput(ids.compactMap { outcomes[$0] }, failures: failed,
                                    concurrency: cap, category: category, ledger: ledger)
        // One bad input alone fails as before: one line on stderr, nothing on stdout; unless it
        // has resources the cache could not store to list.
        if !outcomes.isEmpty || failed.isEmpty || failed.contains(where: { !$0.notStored.isEmpty }) {
            print(json ? try CLIOutput.json(output) : output.text)
        }
        if let first = ids.lazy.compactMap({ failures[$0]?.error }).first { throw first }
    }

    /// Prefetches `urls` into the stack's cache, with a live line on a terminal, and returns
    /// what became of each, the ledger and the concurrency used.
    private func prefetch(_ urls: [URL], category: PrefetchCategory, settings: ReelConfig, factory: CacheDataSourceFactory) async throws
        -> ([PrefetchRequestID], [PrefetchRequestID: PrefetchOutcome], [PrefetchRequestID: (error: ReelError, notStored: [PrefetchOutcome.Item])],
            PrefetchLedger, Int) {
        let prefetcher = Prefetcher(factory: factory, config: settings)
        var ids: [PrefetchRequestID] = []
        for (index, url) in urls.enumerated() {
            ids.append(await prefetcher.enqueue(PrefetchRequest(videoURL: url, category: category, rank: rank + index,
                                                                segments: segments)))
        }
        let live = !json && isatty(STDOUT_FILENO) != 0
        var progress = PrefetchProgress(total: ids.count)
        var pending = Set(ids)
        var outcomes: [PrefetchRequestID: PrefetchOutcome] = [:]
        var failures: [PrefetchRequestID: (error: ReelError, notStored: [PrefetchOutcome.Item])] = [:]
        for await event in prefetcher.events {
            progress.note(event)
            if live { FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + progress.line).utf8)) }
            switch event.kind {
            case .done(_, let outcome):
                outcomes[event.id] = outcome
                pending.remove(event.id)
            case .failed(let error, _, false):
                failures[event.id] = (error, event.notStored)
                pending.remove(event.id)
            case .cancelled:
                pending.remove(event.id)
            default:
                break
            }
            if pending.isEmpty { break }
        }
        if live { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        let ledger = await prefetcher.ledger()
        await prefetcher.shutdown()
        return (ids, outcomes, failures, ledger, prefetcher.limits.cap)
    }
}

/// The one updating line `reel prefetch` shows on a terminal.
struct PrefetchProgress {
    let total: Int
    var running: Set<PrefetchRequestID> = []
    var done = 0
    var failed = 0
    var bytes: Int64 = 0

    mutating func note(_ event: PrefetchEvent) {
        bytes += event.bytes
        switch event.kind {
        case .queued: break
        case .started: running.insert(event.id)
        case .done:
            running.remove(event.id)
            done += 1
        case .cancelled, .suspended: running.remove(event.id)
        case .failed(_, _, let retrying):
            running.remove(event.id)
            if !retrying { failed += 1 }
        }
    }

    var line: String {
        "prefetch: \(done + failed)/\(total) (\(done) done, \(failed) failed), \(running.count) running, \(Human.bytes(bytes)) fetched"
    }
}

/// `reel prefetch --json`.
struct PrefetchOutput: Encodable {
    struct Input: Encodable {
        var url: String
        var variant: String?
        var manifests: [PrefetchOutcome.Item]
        var items: [PrefetchOutcome.Item]
        var fetchedBytes: Int64
        var cachedBytes: Int64
    }

    /// An input that could not be prefetched, with what the cache could not store of it.
    struct Failure: Encodable {
        var url: String
        var code: String
        var message: String
        var notStored: [PrefetchOutcome.Item]

        init(url: URL, error: ReelError, notStored: [PrefetchOutcome.Item] = []) {
            self.url = url.absoluteString
            code = error.code.rawValue
            message = error.description
            self.notStored = notStored
        }
    }

    var inputs: [Input]
    var fetchedBytes: Int64
    var cachedBytes: Int64
    var failures: [Failure]
    /// Transfers at once.
    var concurrency: Int
    var category: String
    var ledger: PrefetchLedger

    init(_ outcomes: [PrefetchOutcome], failures: [Failure], concurrency: Int, category: PrefetchCategory, ledger: PrefetchLedger) {
        inputs = outcomes.map {
            Input(url: $0.url.absoluteString, variant: $0.variant?.absoluteString, manifests: $0.manifests, items: $0.items,
                  fetchedBytes: $0.fetchedBytes, cachedBytes: $0.cachedBytes)
        }
        fetchedBytes = outcomes.reduce(0) { $0 + $1.fetchedBytes }
        cachedBytes = outcomes.reduce(0) { $0 + $1.cachedBytes }
        self.failures = failures
        self.concurrency = concurrency
        self.category = category.rawValue
        self.ledger = ledger
    }

    var text: String {
        var lines: [String] = []
        for input in inputs {
            let all = input.manifests + input.items
            let fetched = all.filter { !$0.alreadyCached }, cached = all.filter(\.alreadyCached)
            lines.append("\(input.url)\(input.variant.map { " (variant \($0))" } ?? ""): fetched \(fetched.count) "
                         + "(\(Human.bytes(input.fetchedBytes))), already cached \(cached.count) (\(Human.bytes(input.cachedBytes)))")
        }
        for failure in failures {
            lines.append("\(failure.url): failed: \(failure.message)")
            for item in failure.notStored {
                lines.append("  not stored: \(item.url)\(item.range.map { " (bytes \($0))" } ?? "")")
            }
        }
        lines.append("Total: fetched \(Human.bytes(fetchedBytes)), already cached \(Human.bytes(cachedBytes))")
        lines.append("Prefetcher (\(concurrency) at once, \(category)): \(ledger.started) started, \(ledger.completed) completed, "
                     + "\(ledger.failed) failed, \(ledger.retried) retried; \(Human.bytes(ledger.fetchedBytes)) stored, "
                     + "\(Human.bytes(ledger.unreadBytes)) not read by playback yet")
        return lines.joined(separator: "\n")
    }
}
