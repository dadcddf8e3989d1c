/// The CDN simulator's error: what failed (a code), on what and why (the message), and the
/// underlying cause. Its codes are the simulator's own (serving a folder, binding, the bill), not
/// the engine's `ReelError` areas, so the CLI maps them to exit codes of their own.
package struct CDNServerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    package enum Code: String, Sendable {
        /// The directory to serve is missing, unreadable or not a directory.
        case invalidRoot
        /// The listening socket could not be bound (address in use, bad host).
        case bindFailed
        /// A configuration value is out of range (a rate outside 0...1, a negative latency).
        case invalidConfiguration
        /// Reading a served file failed.
        case readFailed
        /// Writing the bill to a file failed.
        case statsWriteFailed
    }

    package var code: Code
    package var message: String
    package var cause: (any Error & Sendable)?

    package init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// One line for people: the message, then the cause when there is one.
    package var description: String {
        guard let cause else { return message }
        return "\(message): \(cause)"
    }
}
