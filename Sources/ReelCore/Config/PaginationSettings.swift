/// `pagination.*`: the paginated mock feed API and when the next page is requested.
public struct PaginationSettings: ConfigSection {
    @Setting("Widgets in the first page.", .range(1...10_000))
    public var firstPageSize = 10

    @Setting("Widgets in every later page.", .range(1...10_000))
    public var pageSize = 20

    @Setting("Simulated latency of one page request, in milliseconds.", .range(0...600_000))
    public var latencyMs = 150

    @Setting("Start the catalog over when it ends, for very long feeds.")
    public var loopCatalog = false

    @Setting("Widgets served at most; 0 means no limit (the catalog's end, or never when looping).", .atLeast(0))
    public var maxWidgets = 0

    @Setting("Request the next page when the viewport is within this many screens of the loaded end.", .range(0.0...100.0))
    public var loadMoreScreens = 2.0

    public init() {}
}
