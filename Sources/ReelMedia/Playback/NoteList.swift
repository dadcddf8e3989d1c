/// Problems met on the way that did not stop playback (a packet that failed to read, a frame that
/// failed to decode), capped so a broken stream cannot grow a report without bound.
struct NoteList: Sendable {
    private(set) var items: [String] = []
    let limit: Int

    init(limit: Int = 50) { self.limit = limit }

    mutating func add(_ message: String) {
        if items.count < limit { items.append(message) }
    }
}
