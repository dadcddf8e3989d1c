import ReelCore
/// The cache's index in memory: every entry by key, their LRU order and the bytes they hold.
/// A plain value guarded by the `Cache`'s lock; SQLite holds its durable mirror. Entries come
/// from `CacheIndexContents` (lengths, access times and totals in range) or from sealed files.
public struct CacheIndex: Sendable {
    private struct Item: Sendable {
        var entry: CacheEntry
        var slot: LRUList.Slot
    }

    private var items: [String: Item] = [:]
    private var lru = LRUList()
    /// Bytes of every content file the index lists.
    public private(set) var totalBytes: Int64 = 0
    /// The LRU clock: the next access gets this value.
    public private(set) var clock: Int64 = 1
    /// Entries that hold only the first part of their resource.
    package private(set) var partialCount = 0

    public init(capacity: Int = 0) {
        items.reserveCapacity(capacity)
        lru = LRUList(capacity: capacity)
    }

    public var count: Int { items.count }

    public func entry(_ key: String) -> CacheEntry? { items[key]?.entry }

    /// Marks `key` as just used and returns its entry (with the new access time).
    public mutating func touch(_ key: String) -> CacheEntry? {
        guard var item = items[key] else { return nil }
        item.entry.lastAccess = clock
        clock += 1
        lru.moveToBack(item.slot)
        items[key] = item
        return item.entry
    }

    /// Adds or replaces an entry; returns the one it replaced. The entry's `lastAccess` is kept when
    /// it is ahead of the clock (loading), else set to the clock (a new write is a use).
    @discardableResult
    public mutating func insert(_ entry: CacheEntry, keepAccessTime: Bool = false) -> CacheEntry? {
        let old = remove(entry.key)
        var entry = entry
        if keepAccessTime {
            clock = max(clock, entry.lastAccess + 1)
        } else {
            entry.lastAccess = clock
            clock += 1
        }
        let slot = lru.append(entry.key)
        items[entry.key] = Item(entry: entry, slot: slot)
        totalBytes += entry.length
        if !entry.isComplete { partialCount += 1 }
        return old
    }

    /// Updates fields of an entry in place (not its length, file or LRU position).
    package mutating func update(_ key: String, _ change: (inout CacheEntry) -> Void) -> CacheEntry? {
        guard var item = items[key] else { return nil }
        let length = item.entry.length, complete = item.entry.isComplete
        change(&item.entry)
        item.entry.length = length
        item.entry.isComplete = complete
        items[key] = item
        return item.entry
    }

    @discardableResult
    public mutating func remove(_ key: String) -> CacheEntry? {
        guard let item = items.removeValue(forKey: key) else { return nil }
        lru.remove(item.slot)
        totalBytes -= item.entry.length
        if !item.entry.isComplete { partialCount -= 1 }
        return item.entry
    }

    /// The least recently used entry.
    public var leastRecentlyUsed: CacheEntry? { lru.first.flatMap { items[$0]?.entry } }

    /// Every entry, least recently used first.
    public var entriesInLRUOrder: [CacheEntry] { lru.ordered.compactMap { items[$0]?.entry } }

    package mutating func removeAll() {
        self = CacheIndex()
    }
}
