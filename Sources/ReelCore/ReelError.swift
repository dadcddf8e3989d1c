/// Reel's one public error: what failed (a code grouped by area), on what and why (the message),
/// and the underlying cause when there is one (a C error code, a system error, a parse error).
public struct ReelError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, grouped by area as media players group them.
    public enum Code: String, Sendable, CaseIterable {
        // Input: what the user or a remote server handed us.
        case invalidInput
        case unsupportedScheme
        case forbiddenURL
        case notFound
        // Network.
        case connectionFailed
        case httpStatus
        case timeout
        case networkFailed
        case offline
        // Parsing.
        case malformedPlaylist
        case malformedManifest
        case notAPlaylist
        // Decoding.
        case openFailed
        case noVideoStream
        case decoderUnavailable
        case demuxFailed
        case decodeFailed
        case encodeFailed
        // Cache.
        case cacheIO
        case cacheCorrupt
        /// One resource does not fit in the cache's cap: it is served, not kept; writes go on.
        case cacheFull
        // Configuration and feed data.
        case invalidConfig
        case invalidCatalog
        case invalidTrace
        // Lifecycle.
        case cancelled
        case internalFailure

        /// The area the code belongs to, for grouping in reports and exit codes.
        public var area: Area {
            switch self {
            case .invalidInput, .unsupportedScheme, .forbiddenURL, .notFound: .input
            case .connectionFailed, .httpStatus, .timeout, .networkFailed, .offline: .network
            case .malformedPlaylist, .malformedManifest, .notAPlaylist: .parsing
            case .openFailed, .noVideoStream, .decoderUnavailable, .demuxFailed, .decodeFailed, .encodeFailed: .decoding
            case .cacheIO, .cacheCorrupt, .cacheFull: .cache
            case .invalidConfig, .invalidCatalog, .invalidTrace: .config
            case .cancelled, .internalFailure: .lifecycle
            }
        }
    }

    /// Areas of failure.
    public enum Area: String, Sendable {
        case input, network, parsing, decoding, cache, config, lifecycle
    }

    public var code: Code
    public var message: String
    public var cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The exit status a command-line tool ends with for this error, by area: 2 bad input or
    /// configuration, 3 network, 4 parsing, 5 decoding, 6 cache, 130 cancelled, 1 anything else.
    public var exitStatus: Int32 {
        switch code.area {
        case .input, .config: 2
        case .network: 3
        case .parsing: 4
        case .decoding: 5
        case .cache: 6
        case .lifecycle: code == .cancelled ? 130 : 1
        }
    }

    /// One line for people: the message, then the cause when it adds something.
    public var description: String {
        guard let cause else { return message }
        let causeText = String(describing: cause)
        return message.hasSuffix(causeText) ? message : "\(message): \(causeText)"
    }
}
