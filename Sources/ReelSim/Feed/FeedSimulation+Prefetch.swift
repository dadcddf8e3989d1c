import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelManifest
import ReelNet

/// One prefetch request in the simulation and its job's progress.
struct SimRequest {
    enum Step { case manifest, playlist, initSection, segments }

    let order: PrefetchOrder
    var step = Step.manifest
    var variant = 0
    var segment = 0
    var segments = 0
    var currentKey: String?
    var running = false
    /// The variant it asks its next segment at, until the download policy grants it.
    var asks: Int?
    /// What it read, item by item, for its `done` event.
    var items: [TransferMetrics] = []
}

/// Simulated prefetch: the real `PrefetchPolicy` (categories, cap, starving cap, the gate,
/// suspension and retries) decides which requests run; each job reads what the engine's
/// prefetcher reads (the manifest, the variant playback will start on, its playlist and init
/// section, then the segments its amount covers) through the simulated cache and link.
extension FeedSimulation {
    func prefetch(_ order: PrefetchOrder) {
        if let open = requestOfCard.removeValue(forKey: order.card) { cancelRequest(open, reason: .cancelled) }
        nextRequest += 1
        let id = PrefetchRequestID(nextRequest)
        requests[id] = SimRequest(order: order)
        requestOfCard[order.card] = id
        record(.prefetchQueued(url: order.video.absoluteString, card: CardID(order.card), category: order.category))
        let tier = coordinator.parameters.categories.firstIndex(of: order.category) ?? 0
        performPrefetch(prefetchPolicy.enqueue(id, priority: PrefetchPriority(tier: tier, rank: order.rank)))
    }

    func reprioritize(card: String, category: PrefetchCategory, rank: Int) {
        guard let id = requestOfCard[card] else { return }
        let tier = coordinator.parameters.categories.firstIndex(of: category) ?? 0
        performPrefetch(prefetchPolicy.reprioritize(id, to: PrefetchPriority(tier: tier, rank: rank)))
    }

    func cancelPrefetch(card: String) {
        guard let id = requestOfCard.removeValue(forKey: card) else { return }
        cancelRequest(id, reason: .cancelled)
    }

    func cancelRequest(_ id: PrefetchRequestID, reason: PrefetchPolicy.StopReason) {
        guard requests[id] != nil else { return }
        performPrefetch(prefetchPolicy.cancel(id))
    }

    func performPrefetch(_ actions: [PrefetchPolicy.Action]) {
        for action in actions {
            switch action {
            case .start(let id): startJob(id)
            case .stop(let id, _): stopJob(id)
            case .report(let id, let report): reported(id, report)
            }
        }
    }

    private func startJob(_ id: PrefetchRequestID) {
        guard var request = requests[id] else { return }
        request.running = true
        requests[id] = request
        record(.prefetchStarted(url: request.order.video.absoluteString))
        continueJob(id)
    }

    /// Reads the job's next item; ends the job when there is none.
    private func continueJob(_ id: PrefetchRequestID) {
        guard var request = requests[id], request.running else { return }
        guard let stream = models.media.streams[request.order.video.absoluteString] else {
            request.running = false
            requests[id] = request
            return performPrefetch(prefetchPolicy.jobEnded(id, .failed(retriable: false)))
        }
        switch request.step {
        case .manifest:
            request.currentKey = "\(stream.url)|manifest"
            requests[id] = request
            read("\(stream.url)|manifest", url: stream.url, kind: .playlist, bytes: stream.manifestBytes, by: .prefetch(id))
        case .playlist:
            let variant = stream.variants[request.variant]
            guard variant.playlistBytes > 0 else {
                request.step = .initSection
                requests[id] = request
                return continueJob(id)
            }
            request.currentKey = stream.playlistKey(request.variant)
            requests[id] = request
            read(stream.playlistKey(request.variant), url: variant.name, kind: .playlist, bytes: variant.playlistBytes, by: .prefetch(id))
        case .initSection:
            let variant = stream.variants[request.variant]
            guard variant.initBytes > 0 else {
                request.step = .segments
                requests[id] = request
                return continueJob(id)
            }
            request.currentKey = stream.initKey(request.variant)
            requests[id] = request
            read(stream.initKey(request.variant), url: variant.name + "#init", kind: .initSection, bytes: variant.initBytes,
                 by: .prefetch(id))
        case .segments:
            guard request.segment < request.segments, request.segment < stream.segmentDurations.count else {
                request.running = false
                request.currentKey = nil
                requests[id] = request
                return performPrefetch(prefetchPolicy.jobEnded(id, .completed))
            }
            // Asked of the download policy (today's grants it at once).
            request.asks = request.variant
            requests[id] = request
            scheduleLink()
        }
    }

    /// Reads the job's next segment, which the download policy granted.
    func readJobSegment(_ id: PrefetchRequestID, stream: SimStream) {
        guard var request = requests[id], request.running else { return }
        request.asks = nil
        let variant = stream.variants[request.variant]
        let key = stream.segmentKey(request.variant, request.segment)
        request.currentKey = key
        requests[id] = request
        read(key, url: variant.segmentURLs[request.segment], kind: .segment, bytes: variant.segmentBytes[request.segment],
             by: .prefetch(id))
    }

    /// A whole item arrived for a job.
    func prefetchRead(_ id: PrefetchRequestID, key: String) {
        guard var request = requests[id], request.running, request.currentKey == key,
              let stream = models.media.streams[request.order.video.absoluteString] else { return }
        request.currentKey = nil
        switch request.step {
        case .manifest:
            request.step = .playlist
            request.variant = startVariant(of: stream)
            let amount = request.order.amount ?? .segments(request.order.category.segments(config))
            // Under the link scheduler the segments are its own: the job ends with the init section.
            request.segments = schedulerDecides ? 0 : amount.segmentCount(durations: stream.segmentDurations)
        case .playlist:
            request.step = .initSection
        case .initSection:
            request.step = .segments
        case .segments:
            request.segment += 1
        }
        requests[id] = request
        continueJob(id)
    }

    private func stopJob(_ id: PrefetchRequestID) {
        guard var request = requests[id] else { return }
        if let key = request.currentKey { abandon(key, by: .prefetch(id)) }
        request.currentKey = nil
        request.asks = nil
        request.running = false
        requests[id] = request
        performPrefetch(prefetchPolicy.jobEnded(id, .stopped))
    }

    private func reported(_ id: PrefetchRequestID, _ report: PrefetchPolicy.Report) {
        guard let request = requests[id] else { return }
        let url = request.order.video.absoluteString, card = request.order.card
        let current = requestOfCard[card] == id
        switch report {
        case .completed:
            var network: Int64 = 0
            for item in request.items {
                network += item.bytes - item.cacheHitBytes
                record(.fetch(url: item.url, bytes: item.bytes, cacheBytes: item.cacheHitBytes, cacheHit: item.cacheHit,
                              origin: .prefetch, card: CardID(card)))
            }
            record(.prefetchDone(url: url, bytes: network))
            requests[id] = nil
            if current {
                requestOfCard[card] = nil
                inbox.append(.prefetched(card: card))
            }
        case .cancelled:
            record(.prefetchCancelled(url: url, bytes: request.items.reduce(0) { $0 + $1.bytes - $1.cacheHitBytes }))
            requests[id] = nil
            if current {
                requestOfCard[card] = nil
                inbox.append(.prefetchEnded(card: card))
            }
        case .failed:
            record(.error(card: CardID(card), message: "prefetch of '\(url)' failed: the simulation has no media for it"))
            requests[id] = nil
            if current {
                requestOfCard[card] = nil
                inbox.append(.prefetchEnded(card: card))
            }
        case .suspended, .retrying:
            break
        }
    }
}
