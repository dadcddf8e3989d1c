import Foundation
import ReelCore

extension SessionEvent {
    /// The events as JSON lines, the format `load` reads.
    public static func jsonLines(_ events: [SessionEvent]) -> String {
        var text = ""
        for event in events {
            text += JSONWriter.compact(event.json)
            text += "\n"
        }
        return text
    }

    /// Writes the events to `path` as JSON lines (replacing the file whole). Blocking file I/O:
    /// call it from a thread of its own.
    public static func write(_ events: [SessionEvent], to path: String) throws {
        do {
            try Data(jsonLines(events).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write the events to '\(path)': \(error.localizedDescription)")
        }
    }
}
