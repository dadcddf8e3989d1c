/// Tells a live playlist from a finished one by its text, cheaply, when it is cached: an HLS
/// media playlist without `#EXT-X-ENDLIST` and not `#EXT-X-PLAYLIST-TYPE:VOD`, or a dynamic
/// DASH MPD. A master playlist or anything else is not live. Live entries are refetched while
/// the network is reachable; finished ones are served from the cache.
enum PlaylistLiveness {
    static func isLive(_ text: [UInt8]) -> Bool {
        var start = 0
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < text.count, text[start] == 0x20 || text[start] == 0x0A || text[start] == 0x0D || text[start] == 0x09 {
            start += 1
        }
        let body = text[start...]
        if body.starts(with: Array("#EXTM3U".utf8)) {
            let isMedia = contains(body, "#EXTINF") || contains(body, "#EXT-X-TARGETDURATION")
            guard isMedia, !contains(body, "#EXT-X-STREAM-INF") else { return false }
            return !contains(body, "#EXT-X-ENDLIST") && !contains(body, "#EXT-X-PLAYLIST-TYPE:VOD")
        }
        if body.first == UInt8(ascii: "<"), contains(body, "<MPD") {
            return contains(body, "type=\"dynamic\"") || contains(body, "type='dynamic'")
        }
        return false
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, haystack.count >= pattern.count else { return false }
        var index = haystack.startIndex
        let last = haystack.endIndex - pattern.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + pattern.count)].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }
}
