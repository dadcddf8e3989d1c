import ReelCore

extension SessionSummary {
    /// Reads the object `json` writes (what `reel feed run --json` prints). Every key must be
    /// there, a number or null (a figure with no value: missing for TTFF and the 50 ms share, 0
    /// for the rest); keys it does not know are ignored.
    public init(json: JSONValue) throws {
        guard case .object = json else {
            throw ReelError(.invalidInput, "a summary must be a JSON object, found \(json.kindDescription)")
        }
        func optionalNumber(_ path: String) throws -> Double? {
            var value = json
            for key in path.split(separator: ".") {
                guard let member = value[String(key)] else { throw ReelError(.invalidInput, "the summary has no \"\(path)\"") }
                value = member
            }
            if value == .null { return nil }
            guard let number = value.number, number.isFinite else {
                throw ReelError(.invalidInput, "summary \"\(path)\" must be a number, found \(value.kindDescription)")
            }
            return number
        }
        func number(_ path: String) throws -> Double { try optionalNumber(path) ?? 0 }
        func integer(_ path: String) throws -> Int64 {
            let value = try number(path)
            guard abs(value) < 9_007_199_254_740_992 else { throw ReelError(.invalidInput, "summary \"\(path)\" is out of range: \(value)") }
            return Int64(value.rounded())
        }
        self.init()
        plays = Int(try integer("plays"))
        ttffMs.p50 = try optionalNumber("ttffMs.p50")
        ttffMs.p95 = try optionalNumber("ttffMs.p95")
        ttffMs.max = try optionalNumber("ttffMs.max")
        startedWithin50msRatio = try optionalNumber("startedWithin50msRatio")
        stallCount = Int(try integer("stalls.count"))
        stallTotalMs = try number("stalls.totalMs")
        frames = Int(try integer("frames"))
        cdnRequests = Int(try integer("cdn.requests"))
        cdnBytes = try integer("cdn.bytes")
        bytesPlayed = try integer("bytesPlayed")
        cacheHitRatio = try number("cacheHitRatio")
        prefetchFetchedBytes = try integer("prefetch.fetchedBytes")
        prefetchUsedBytes = try integer("prefetch.usedBytes")
        prefetchWastedBytes = try integer("prefetch.wastedBytes")
        decodersCreated = Int(try integer("decoders.created"))
        decodersReused = Int(try integer("decoders.reused"))
        peakRSSMB = try number("peakRSSMB")
        errors = Int(try integer("errors"))
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
