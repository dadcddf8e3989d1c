import Foundation
import ReelCore

/// Collects output lines and writes them to standard output in large chunks.
final class FileLineBuffer: Sendable {
    private let pending = Locked<[UInt8]>([])

    func append(_ line: String) {
        let full = pending.withLock { buffer -> [UInt8]? in
            buffer.append(contentsOf: line.utf8)
            buffer.append(0x0A)
            guard buffer.count >= 64 << 10 else { return nil }
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        if let full { FileHandle.standardOutput.write(Data(full)) }
    }

    func flush() {
        let rest = pending.withLock { buffer -> [UInt8] in
            defer { buffer.removeAll() }
            return buffer
        }
        if !rest.isEmpty { FileHandle.standardOutput.write(Data(rest)) }
    }
}
