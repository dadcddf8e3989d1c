import OrderedCollections

/// Every tunable of Reel in one typed value. Each key is a `Setting` property declared with its
/// default and description; its dotted name is its path ("prefetch.maxConcurrent"). Load with
/// `ConfigResolver`; `ReelConfig()` holds the built-in defaults.
public struct ReelConfig: ConfigSection {
    public var app = AppSettings()
    public var device = DeviceSettings()
    public var network = NetworkSettings()
    public var cache = CacheSettings()
    public var manifest = ManifestSettings()
    public var decoder = DecoderSettings()
    public var playback = PlaybackSettings()
    public var prefetch = PrefetchSettings()
    public var preload = PreloadSettings()
    public var scheduler = SchedulerSettings()
    public var abr = ABRSettings()
    public var feed = FeedSettings()
    public var pagination = PaginationSettings()
    public var widgets = WidgetSettings()
    public var layout = LayoutSettings()
    public var visibility = VisibilitySettings()
    public var recycling = RecyclingSettings()
    public var launch = LaunchSettings()

    public init() {}

    /// The effective version of the app (`app.version`), Reel's own when it does not parse.
    public var appVersion: ReelVersion {
        ReelVersion(app.version) ?? .current
    }

    /// Every key's value, flat and in declaration order.
    public var flatValues: [(key: String, value: JSONValue)] {
        var values: [(key: String, value: JSONValue)] = []
        Self.flatten(self, path: [], into: &values)
        return values
    }

    /// Every key's value as one flat JSON object of key -> value, for `reel config show --json`.
    public var flatJSON: JSONValue {
        var object: OrderedDictionary<String, JSONValue> = [:]
        for (key, value) in flatValues { object[key] = value }
        return .object(object)
    }

    private static func flatten(_ section: Any, path: [String], into values: inout [(key: String, value: JSONValue)]) {
        for child in Mirror(reflecting: section).children {
            guard var label = child.label else { continue }
            if label.hasPrefix("_") { label.removeFirst() }
            if let setting = child.value as? any AnySetting {
                let info = setting.info(key: (path + [label]).joined(separator: "."))
                values.append((info.key, info.defaultValue))
            } else if child.value is any ConfigSection {
                flatten(child.value, path: path + [label], into: &values)
            }
        }
    }
}
