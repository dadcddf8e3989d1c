import Foundation
import NIOPosix
import ReelCore

extension CDNBill {
    /// Writes the bill as pretty JSON (with `reelVersion`) to `path`, replacing the file; the
    /// write runs on NIO's thread pool, not on the caller's executor.
    package func writeJSON(toFile path: String) async throws {
        let data = Data(JSONWriter.pretty(ReportJSON.versioned(try JSONValue(encoding: self))).utf8)
        try await NIOThreadPool.singleton.runIfActive { () throws in
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CDNServerError(.statsWriteFailed, "cannot write the bill to '\(path)'", cause: error as NSError)
            }
        }
    }
}
