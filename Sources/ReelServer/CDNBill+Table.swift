import Foundation

/// The bill as a plain-text table for people (`reel serve` prints it on exit).
extension CDNBill {
    /// Totals first, then one row per path sorted by path.
    package func table() -> String {
        var lines: [String] = []
        lines.append("CDN bill")
        lines.append("  requests          \(requests)")
        lines.append("  body bytes        \(bodyBytes) (\(Self.humanBytes(bodyBytes)))")
        lines.append("  connections       \(connections) (peak \(peakConcurrentConnections) at once, \(openConnections) open)")
        lines.append("  statuses          \(Self.statusText(statusCounts))")
        lines.append("  injected faults   \(faults.total) (status \(faults.status), reset \(faults.reset), stall \(faults.stall))")
        if let split = purposeText { lines.append("  by purpose (CMCD) \(split)") }
        guard !paths.isEmpty else { return lines.joined(separator: "\n") }
        let header = ["path", "requests", "bytes", "peak", "statuses", "faults"]
        var rows: [[String]] = [header]
        for (path, bill) in paths.sorted(by: { $0.key < $1.key }) {
            rows.append([
                path, String(bill.requests), String(bill.bodyBytes), String(bill.peakConcurrentRequests),
                Self.statusText(bill.statusCounts), String(bill.faults.total),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        lines.append("")
        for row in rows {
            let cells = row.indices.map { column in
                column == 0 || column == 4
                    ? row[column].padded(to: widths[column])
                    : String(repeating: " ", count: widths[column] - row[column].count) + row[column]
            }
            lines.append("  " + cells.joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    /// Body bytes by what the client said they were for (CMCD), "startup 1.2 MiB (12), ...";
    /// nil when no request carried CMCD.
    package var purposeText: String? {
        guard purposes.keys.contains(where: { $0 != CMCDData.Purpose.unlabeled.rawValue }) else { return nil }
        return CMCDData.Purpose.allCases.compactMap { purpose in
            purposes[purpose.rawValue].map { "\(purpose.rawValue) \(Self.humanBytes($0.bodyBytes)) (\($0.requests))" }
        }.joined(separator: ", ")
    }

    private static func statusText(_ counts: [String: Int]) -> String {
        guard !counts.isEmpty else { return "-" }
        return counts.sorted { $0.key < $1.key }.map { "\($0.key)x\($0.value)" }.joined(separator: " ")
    }

    private static func humanBytes(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f ", value) + units[unit]
    }
}

extension String {
    /// The string padded with spaces on the right to `length` characters.
    fileprivate func padded(to length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
