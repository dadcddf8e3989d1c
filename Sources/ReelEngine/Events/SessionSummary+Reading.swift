import ReelCore

extension SessionSummary {
    /// Reads the object `json` writes (what `reel feed run --json` prints); a missing key or one
    /// of the wrong kind is an error naming it. Keys it does not know are ignored.
    public init(json: JSONValue) throws {
        guard case .object = json else {
            throw ReelError(.invalidInput, "a summary must be a JSON object, found \(json.kindDescription)")
        }
        self = try json.decode(SessionSummary.self)
    }

    /// The summaries in `json`: one summary, or the `a` and `b` of a comparison
    /// (`{"a": ..., "b": ..., "ratios": ...}`, what `reel feed run --compare --json` prints).
    public static func summaries(in json: JSONValue) throws -> [SessionSummary] {
        if let a = json["a"], let b = json["b"], json["plays"] == nil {
            return [try reading(a, as: "\"a\""), try reading(b, as: "\"b\"")]
        }
        return [try SessionSummary(json: json)]
    }

    /// Reads a summary file: one summary or a comparison of two. Errors name the file.
    public static func load(path: String) throws -> [SessionSummary] {
        let bytes = try FileBytes.read(path, what: "summary file", code: .notFound)
        do {
            return try summaries(in: try JSONParser.parse(bytes: bytes))
        } catch let error as JSONParser.SyntaxError {
            throw ReelError(.invalidInput, "summary file '\(path)': not valid JSON (\(error.description))")
        } catch let error as ReelError {
            throw ReelError(.invalidInput, "summary file '\(path)': \(error.message)")
        }
    }

    private static func reading(_ json: JSONValue, as name: String) throws -> SessionSummary {
        do {
            return try SessionSummary(json: json)
        } catch let error as ReelError {
            throw ReelError(.invalidInput, "in \(name): \(error.message)")
        }
    }
}
