import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelNet

/// A made-up but plausible feed session for report tests: the user scrolls through `widgets`
/// widgets (shorts, carousels of three, merch cards), each card prefetched, mounted, played and
/// released, with fetches by every origin, a few stalls and an error. Seeded, so deterministic.
enum SyntheticSession {
    static func events(widgets: Int, seconds: Double, prefetch: Bool = true, seed: UInt64 = 7) -> [SessionEvent] {
        var random = SeededRandom(seed: seed)
        var events: [SessionEvent] = []
        func add(_ time: Double, _ kind: SessionEvent.Kind) { events.append(SessionEvent(time: time, kind: kind)) }
        let dwell = seconds / Double(widgets)
        for index in 0..<widgets {
            let type: WidgetType = index % 7 == 3 ? .merch : index % 4 == 1 ? .carousel : .short
            let widget = WidgetID("\(type == .short ? "s" : type == .carousel ? "c" : "m")\(index)")
            let start = Double(index) * dwell
            let leave = start + dwell * (0.6 + 0.4 * random.unit())
            for slot in 0..<(type == .carousel ? 3 : 1) {
                let card = CardID("\(widget)/\(slot)")
                let url = "http://127.0.0.1:8080/streams/\(card)/"
                let near = max(0, start - dwell * 0.8)
                add(near, .visibility(card: card, from: .idle, to: .prefetch))
                add(near, .fetch(url: url + "thumb.jpg", bytes: 30_000, cacheBytes: 0, cacheHit: false, origin: .thumbnail, card: card))
                if prefetch {
                    add(near, .prefetchQueued(url: url + "index.m3u8", card: card, category: .nearby))
                    add(near + 0.01, .prefetchStarted(url: url + "index.m3u8"))
                    add(near + 0.2, .fetch(url: url + "seg0.ts", bytes: 180_000, cacheBytes: 0, cacheHit: false, origin: .prefetch, card: card))
                    add(near + 0.2, .prefetchDone(url: url + "index.m3u8", bytes: 180_000))
                }
                let mount = max(near + 0.05, start - dwell * 0.3)
                add(mount, .visibility(card: card, from: .prefetch, to: .mounted))
                add(mount, .mount(card: card))
                var end = leave
                if type != .merch && slot == 0 {
                    add(start, .visibility(card: card, from: .mounted, to: .ready))
                    add(start, .playStart(card: card, widget: widget, widgetType: type, userIntent: index % 11 == 5))
                    let ttff = prefetch ? 8 + 30 * random.unit() : 150 + 300 * random.unit()
                    add(start + ttff / 1000, .visibility(card: card, from: .ready, to: .active))
                    add(start + ttff / 1000, .firstFrame(card: card, ttffMs: ttff, phases: TTFFBreakdown(openMs: ttff / 2, firstFrameMs: ttff / 2, totalMs: ttff)))
                    var t = start + ttff / 1000
                    var segment = 0
                    while t < leave {
                        add(t, .fetch(url: url + "seg\(segment).ts", bytes: 200_000, cacheBytes: (segment == 0 && prefetch) ? 200_000 : 0, cacheHit: segment == 0 && prefetch,
                                      origin: .playback, card: card))
                        segment += 1
                        t += 2
                    }
                    if random.unit() < 0.15 { add(start + dwell * 0.4, .stall(card: card, ms: 200 + 600 * random.unit())) }
                    add(leave, .visibility(card: card, from: .active, to: .softRelease))
                    add(leave + 0.3, .playStop(card: card, reason: .paused))
                    add(leave + 0.3, .visibility(card: card, from: .softRelease, to: .paused))
                    end = leave + 0.3
                }
                if index == widgets / 2 && slot == 0 { add(start + 0.5, .error(card: card, message: "segment 3: HTTP 503")) }
                add(end + dwell * 0.5, .visibility(card: card, from: type != .merch && slot == 0 ? .paused : .mounted, to: .unmounted))
                add(end + dwell * 0.5, .unmount(card: card))
            }
        }
        return events.sorted { $0.time < $1.time }
    }
}
