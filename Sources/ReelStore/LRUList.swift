import ReelCore
/// The least-recently-used order of cache keys: a doubly linked list over slot arrays, so a
/// touch (move to the back), an insert and a removal are O(1) with no allocation per node.
struct LRUList: Sendable {
    typealias Slot = Int32
    private var keys: [String?] = []
    private var previous: [Slot] = []
    private var next: [Slot] = []
    private var freeSlots: [Slot] = []
    private var head: Slot = -1
    private var tail: Slot = -1
    private(set) var count = 0

    init(capacity: Int = 0) {
        keys.reserveCapacity(capacity)
        previous.reserveCapacity(capacity)
        next.reserveCapacity(capacity)
    }

    /// Adds `key` as the most recently used; returns its slot.
    mutating func append(_ key: String) -> Slot {
        let slot: Slot
        if let free = freeSlots.popLast() {
            slot = free
            keys[Int(slot)] = key
        } else {
            slot = Slot(keys.count)
            keys.append(key)
            previous.append(-1)
            next.append(-1)
        }
        link(slot)
        count += 1
        return slot
    }

    /// Makes `slot` the most recently used.
    mutating func moveToBack(_ slot: Slot) {
        guard slot != tail else { return }
        unlink(slot)
        link(slot)
    }

    mutating func remove(_ slot: Slot) {
        unlink(slot)
        keys[Int(slot)] = nil
        freeSlots.append(slot)
        count -= 1
    }

    /// The least recently used key.
    var first: String? { head < 0 ? nil : keys[Int(head)] }

    /// Keys from least to most recently used.
    var ordered: [String] {
        var result: [String] = []
        result.reserveCapacity(count)
        var slot = head
        while slot >= 0 {
            if let key = keys[Int(slot)] { result.append(key) }
            slot = next[Int(slot)]
        }
        return result
    }

    private mutating func link(_ slot: Slot) {
        previous[Int(slot)] = tail
        next[Int(slot)] = -1
        if tail >= 0 { next[Int(tail)] = slot } else { head = slot }
        tail = slot
    }

    private mutating func unlink(_ slot: Slot) {
        let before = previous[Int(slot)], after = next[Int(slot)]
        if before >= 0 { next[Int(before)] = after } else { head = after }
        if after >= 0 { previous[Int(after)] = before } else { tail = before }
        previous[Int(slot)] = -1
        next[Int(slot)] = -1
    }
}
