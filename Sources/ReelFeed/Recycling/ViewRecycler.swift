import ReelCore
/// Binds view holders to the widgets in the viewport plus a buffer (`recycling.bufferScreens`
/// each way) and nothing else, pooling unbound holders per widget type
/// (`recycling.maxPooledPerType`) for reuse, as a recycling list does. Collapsed widgets get no
/// holder. The bound widgets always form one contiguous range.
public struct ViewRecycler: Sendable {
    /// One binding change.
    public enum Change: Sendable, Equatable {
        case bound(widget: Int, holder: ViewHolder, reused: Bool)
        case unbound(widget: Int, holder: ViewHolder)
    }

    public let bufferScreens: Double
    public let maxPooledPerType: Int
    /// Widget positions whose holders are bound.
    public private(set) var boundRange: Range<Int> = 0..<0
    private var holders: [Int: ViewHolder] = [:]
    private var pools: [[ViewHolder]] = Array(repeating: [], count: WidgetType.allCases.count)
    private var counts: [RecyclerStats] = Array(repeating: RecyclerStats(), count: WidgetType.allCases.count)

    public init(bufferScreens: Double, maxPooledPerType: Int) {
        self.bufferScreens = bufferScreens
        self.maxPooledPerType = maxPooledPerType
    }

    public init(config: ReelConfig) {
        self.init(bufferScreens: config.recycling.bufferScreens, maxPooledPerType: config.recycling.maxPooledPerType)
    }

    /// The holder bound to a widget, if any.
    public func holder(ofWidget widget: Int) -> ViewHolder? {
        holders[widget]
    }

    /// Counts for one widget type.
    public func stats(for type: WidgetType) -> RecyclerStats {
        counts[type.ordinal]
    }

    /// Counts over all types.
    public var totals: RecyclerStats {
        counts.reduce(into: RecyclerStats()) { total, stats in
            total.created += stats.created
            total.reused += stats.reused
            total.discarded += stats.discarded
            total.bound += stats.bound
            total.pooled += stats.pooled
        }
    }

    /// Rebinds for the viewport at vertical `offset`: unbinds widgets that left the buffered
    /// viewport (their holders go to the pool first), then binds those that entered.
    @discardableResult
    public mutating func update(offset: Double, layout: FeedLayout) -> [Change] {
        let buffer = bufferScreens * layout.viewport.height
        let range = layout.widgets(from: offset - buffer, to: offset + layout.viewport.height + buffer)
        return bind(range, layout: layout)
    }

    /// Releases a widget's holder to the pool (its content changed type); the next update binds
    /// a holder of the right type.
    @discardableResult
    public mutating func release(widget: Int) -> [Change] {
        guard let holder = holders.removeValue(forKey: widget) else { return [] }
        counts[holder.type.ordinal].bound -= 1
        recycle(holder)
        return [.unbound(widget: widget, holder: holder)]
    }

    private mutating func recycle(_ holder: ViewHolder) {
        if pools[holder.type.ordinal].count < maxPooledPerType {
            pools[holder.type.ordinal].append(holder)
            counts[holder.type.ordinal].pooled += 1
        } else {
            counts[holder.type.ordinal].discarded += 1
        }
    }

    /// Rebinds so that exactly the widgets in `range` are bound.
    @discardableResult
    public mutating func bind(_ range: Range<Int>, layout: FeedLayout) -> [Change] {
        var changes: [Change] = []
        let old = boundRange
        for widget in old where !range.contains(widget) {
            guard let holder = holders.removeValue(forKey: widget) else { continue }
            counts[holder.type.ordinal].bound -= 1
            recycle(holder)
            changes.append(.unbound(widget: widget, holder: holder))
        }
        for widget in range where !old.contains(widget) || holders[widget] == nil {
            guard widget < layout.count, let type = layout.types[widget], holders[widget] == nil else { continue }
            let holder: ViewHolder
            let reused: Bool
            if let pooled = pools[type.ordinal].popLast() {
                holder = pooled
                reused = true
                counts[type.ordinal].pooled -= 1
                counts[type.ordinal].reused += 1
            } else {
                holder = ViewHolder(type: type, number: counts[type.ordinal].created)
                reused = false
                counts[type.ordinal].created += 1
            }
            counts[type.ordinal].bound += 1
            holders[widget] = holder
            changes.append(.bound(widget: widget, holder: holder, reused: reused))
        }
        boundRange = range
        return changes
    }
}
