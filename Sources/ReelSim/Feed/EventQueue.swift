/// Timed events in time order, ties in the order they were added: the simulation's agenda.
struct EventQueue<Element> {
    private var heap: [(time: Double, order: Int, element: Element)] = []
    private var added = 0

    var isEmpty: Bool { heap.isEmpty }
    var nextTime: Double? { heap.first?.time }

    mutating func add(_ element: Element, at time: Double) {
        added += 1
        heap.append((time, added, element))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (time: Double, element: Element)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, Self.before(heap[left], heap[first]) { first = left }
            if right < heap.count, Self.before(heap[right], heap[first]) { first = right }
            guard first != parent else { break }
            heap.swapAt(first, parent)
            parent = first
        }
        return (top.time, top.element)
    }

    private static func before(_ a: (time: Double, order: Int, element: Element), _ b: (time: Double, order: Int, element: Element)) -> Bool {
        (a.time, a.order) < (b.time, b.order)
    }
}
