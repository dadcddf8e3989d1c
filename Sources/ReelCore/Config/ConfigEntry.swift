/// One key set by one layer: its value (JSON from a file, text from `--set`), the version the value
/// needs, and where it came from.
struct ConfigEntry: Sendable {
    enum Raw: Sendable {
        case json(JSONValue)
        case text(String)
    }

    var key: String
    var raw: Raw
    /// The value applies only when `app.version` is at least this.
    var minVersion: ReelVersion?
    /// "config file 'a.json'" or "--set".
    var layer: String

    /// The raw value as written, for messages, on one line and cut (see `ShownText`).
    var shownValue: String {
        switch raw {
        case .json(let json): ShownText.oneLine(JSONWriter.compact(json))
        case .text(let text): "'\(ShownText.oneLine(text))'"
        }
    }
}
