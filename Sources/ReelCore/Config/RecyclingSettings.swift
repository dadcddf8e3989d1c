/// `recycling.*`: the pool of view holders, as a recycling list keeps them.
public struct RecyclingSettings: ConfigSection {
    @Setting("Widgets bound beyond each edge of the viewport, in screens.", .range(0.0...100.0))
    public var bufferScreens = 0.5

    @Setting("Unbound holders kept per widget type for reuse.", .range(0...1000))
    public var maxPooledPerType = 4

    public init() {}
}
