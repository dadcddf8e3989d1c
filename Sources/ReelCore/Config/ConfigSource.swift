/// One layer of configuration above the built-in defaults, in the order given: later layers win
/// per key.
public enum ConfigSource: Sendable, Equatable {
    /// A JSON file of dotted keys (`--config FILE`).
    case file(String)
    /// JSON text of dotted keys, named for messages.
    case json(String, name: String)
    /// `key=value` assignments, the value read by the key's type; `from` names the option they
    /// came from in messages (`--set`, `--compare`, `--vary`).
    case assignments([String], from: String = "--set")

    /// The layer's name in messages: "config file 'a.json'", "--set".
    public var name: String {
        switch self {
        case .file(let path): "config file '\(path)'"
        case .json(_, let name): name
        case .assignments(_, let option): option
        }
    }
}
