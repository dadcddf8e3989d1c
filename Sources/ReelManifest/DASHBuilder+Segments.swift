import Foundation
import ReelCore

/// Segment expansion of one Representation in one period. Every count is computed and checked
/// against the `DASHSegmentBudget` before a segment is built, and every media time and segment
/// number is checked to fit in 64 bits before the loop that builds them.
extension DASHBuilder {
    mutating func expand(
        _ info: DASHSegmentInfo, base: URL, template: DASHTemplate, periodDuration: Double?, budget: DASHSegmentBudget,
        line: Int
    ) throws -> [Segment] {
        guard let kind = info.kind, let fields = info.effective else {
            try budget.check(1, "the Representation", line: line, reader: reader)
            return [try wholeResource(base: base, fields: nil, template: template, periodDuration: periodDuration, line: line)]
        }
        switch kind {
        case .base:
            try budget.check(1, "the Representation", line: line, reader: reader)
            return [try wholeResource(base: base, fields: fields, template: template, periodDuration: periodDuration, line: line)]
        case .template:
            return try expandTemplate(fields, base: base, template: template, periodDuration: periodDuration, budget: budget)
        case .list:
            return try expandList(fields, base: base, template: template, periodDuration: periodDuration, budget: budget)
        }
    }

    /// `SegmentBase`, or no addressing at all: the BaseURL is one segment covering the resource.
    mutating func wholeResource(
        base: URL, fields: DASHSegmentInfo.Fields?, template: DASHTemplate, periodDuration: Double?, line: Int
    ) throws -> Segment {
        if periodDuration == nil {
            warn(line, "Representation '\(template.representationID)' is one segment in a period of unknown duration; its duration is 0")
        }
        let initSection = try initialization(fields, base: base, template: template)
        return Segment(uri: base.absoluteString, resolvedURL: base, duration: periodDuration ?? 0, initSection: initSection)
    }

    func initialization(_ fields: DASHSegmentInfo.Fields?, base: URL, template: DASHTemplate) throws -> InitSection? {
        guard let fields else { return nil }
        if let text = fields.initializationTemplate {
            let uri = template.fill(text)
            return InitSection(uri: uri, resolvedURL: try resolve(uri, against: base, line: fields.line))
        }
        if let initialization = fields.initialization {
            let uri = initialization.sourceURL.map { template.fill($0) } ?? ""
            return InitSection(
                uri: uri.isEmpty ? base.absoluteString : uri, resolvedURL: try resolve(uri, against: base, line: fields.line),
                byteRange: initialization.range)
        }
        return nil
    }

    /// (media time, duration) pairs in timescale units from a `SegmentTimeline`, `r=-1`
    /// repeating up to the next `S@t` or the end of the period. A first pass counts what each
    /// entry stands for and checks that every media time fits; the second builds exactly that.
    mutating func timelineEntries(
        _ timeline: [DASHSegmentInfo.TimelineEntry], timescale: Int64, presentationTimeOffset: Int64,
        periodDuration: Double?, budget: DASHSegmentBudget
    ) throws -> [(time: Int64, duration: Int64)] {
        var counts: [Int] = []
        counts.reserveCapacity(timeline.count)
        var total = 0
        var time: Int64 = timeline.first?.time ?? 0
        for (index, entry) in timeline.enumerated() {
            if let explicit = entry.time { time = explicit }
            let count: Int
            if entry.repeatCount >= 0 {
                guard entry.repeatCount <= Int64(limits.maxTimelineRepeat) else {
                    throw reader.failure(
                        entry.line,
                        "S@r \(entry.repeatCount) is more than \(limits.maxTimelineRepeat) repeats (manifest.maxTimelineRepeat)")
                }
                count = Int(entry.repeatCount) + 1
            } else if index + 1 < timeline.count, let nextTime = timeline[index + 1].time {
                count = try repeats(until: Double(nextTime), from: time, duration: entry.duration, line: entry.line)
            } else if let periodDuration {
                let end = Double(presentationTimeOffset) + periodDuration * Double(timescale)
                count = try repeats(until: end, from: time, duration: entry.duration, line: entry.line)
            } else {
                warn(entry.line, "S@r=-1 in a period of unknown duration; repeated once")
                count = 1
            }
            // Each count is at most maxTimelineRepeat + 1 and the total at most the budget, so
            // the sum cannot overflow.
            total += count
            try budget.check(total, "the SegmentTimeline", line: entry.line, reader: reader)
            guard let span = Int64(count).checkedMultiplying(by: entry.duration), let end = time.checkedAdding(span) else {
                throw reader.failure(
                    entry.line, "the SegmentTimeline reaches beyond media time 2^63-1 (\(time) + \(count) x S@d \(entry.duration))")
            }
            time = end
            counts.append(count)
        }

        var result: [(time: Int64, duration: Int64)] = []
        result.reserveCapacity(total)
        time = timeline.first?.time ?? 0
        for (entry, count) in zip(timeline, counts) {
            if let explicit = entry.time { time = explicit }
            for _ in 0..<count {
                result.append((time, entry.duration))
                time += entry.duration  // Checked above: the entry's end fits.
            }
        }
        return result
    }

    /// How many `S@d` segments from `time` reach `end` (at least one), refusing more than
    /// `manifest.maxTimelineRepeat` repeats before converting, so no arithmetic can trap.
    func repeats(until end: Double, from time: Int64, duration: Int64, line: Int) throws -> Int {
        let exact = ((end - Double(time)) / Double(duration)).rounded(.up)
        guard exact <= Double(limits.maxTimelineRepeat) + 1 else {
            throw reader.failure(
                line, "S@r=-1 repeats S@d \(duration) more than \(limits.maxTimelineRepeat) times (manifest.maxTimelineRepeat)")
        }
        return exact < 1 ? 1 : Int(exact)
    }

    /// How many `@duration` segments fill the period (the last one is cut at the period end),
    /// rounded up but left a `Double`: callers check it against a budget or a list before it
    /// becomes an integer. Nil when the period's duration is unknown.
    func periodSegmentCount(duration: Int64, timescale: Int64, periodDuration: Double?) -> Double? {
        guard let periodDuration else { return nil }
        let exact = periodDuration * Double(timescale) / Double(duration)
        // Tolerate rounding in the period duration: 5.9999999 segments is 6.
        return (exact - 1e-6).rounded(.up)
    }

    /// Refuses a `$Number$` past 2^63-1: `startNumber + count - 1` must fit.
    /// Where a segment's URI points: the base itself when empty (a segment that is the whole
    /// resource), else resolved against it; a URI that resolves to no URL is an error on `line`.
    func segmentLocation(_ uri: String, resolver: inout URLResolver, base: URL, line: Int) throws -> SegmentLocation {
        if uri.isEmpty { return .url(base) }
        guard let found = resolver.location(uri) else {
            throw reader.failure(line, "'\(uri.prefix(80))' is not a valid URL")
        }
        return found
    }

    func checkNumbers(startNumber: Int64, count: Int, line: Int) throws {
        guard count > 0 else { return }
        guard startNumber.checkedAdding(Int64(count - 1)) != nil else {
            throw reader.failure(
                line, "\(count) segments from @startNumber \(startNumber) take $Number$ beyond 2^63-1")
        }
    }

    mutating func expandTemplate(
        _ fields: DASHSegmentInfo.Fields, base: URL, template: DASHTemplate, periodDuration: Double?,
        budget: DASHSegmentBudget
    ) throws -> [Segment] {
        guard let media = fields.media else {
            throw reader.failure(fields.line, "SegmentTemplate has no @media")
        }
        let timescale = fields.timescale ?? 1
        let offset = fields.presentationTimeOffset ?? 0
        let startNumber = fields.startNumber ?? 1
        let context = SegmentContext(key: nil, initSection: try initialization(fields, base: base, template: template))
        var resolver = URLResolver(base: base)
        var segments: [Segment] = []
        func add(number: Int64, time: Int64, duration: Double) throws {
            let uri = template.fill(media, number: number, time: time)
            let location = try segmentLocation(uri, resolver: &resolver, base: base, line: fields.line)
            segments.append(Segment(uri: uri, location: location, duration: duration, context: context))
        }
        if let timeline = fields.timeline {
            let entries = try timelineEntries(
                timeline, timescale: timescale, presentationTimeOffset: offset, periodDuration: periodDuration,
                budget: budget)
            try checkNumbers(startNumber: startNumber, count: entries.count, line: fields.line)
            segments.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                try add(
                    number: startNumber + Int64(index), time: entry.time,
                    duration: Double(entry.duration) / Double(timescale))
            }
        } else if let duration = fields.duration {
            guard let exact = periodSegmentCount(duration: duration, timescale: timescale, periodDuration: periodDuration)
            else {
                warn(fields.line, "SegmentTemplate@duration in a period of unknown duration (live) needs a clock; no segments listed")
                return []
            }
            try budget.check(exact, "@duration \(duration)", line: fields.line, reader: reader)
            let count = exact <= 0 ? 0 : Int(exact)
            try checkNumbers(startNumber: startNumber, count: count, line: fields.line)
            if count > 0 {
                guard let span = Int64(count - 1).checkedMultiplying(by: duration), offset.checkedAdding(span) != nil else {
                    throw reader.failure(
                        fields.line, "@presentationTimeOffset \(offset) + \(count - 1) x @duration \(duration) goes beyond $Time$ 2^63-1")
                }
            }
            segments.reserveCapacity(count)
            let nominal = Double(duration) / Double(timescale)
            for index in 0..<count {
                var length = nominal
                if index == count - 1, let periodDuration {
                    length = min(nominal, periodDuration - Double(index) * nominal)
                }
                // Both checked above for the last segment, so they fit for every one.
                try add(number: startNumber + Int64(index), time: offset + Int64(index) * duration, duration: length)
            }
        } else {
            try budget.check(1, "the SegmentTemplate", line: fields.line, reader: reader)
            try add(number: startNumber, time: offset, duration: periodDuration ?? 0)
        }
        return segments
    }

    mutating func expandList(
        _ fields: DASHSegmentInfo.Fields, base: URL, template: DASHTemplate, periodDuration: Double?,
        budget: DASHSegmentBudget
    ) throws -> [Segment] {
        let urls = fields.segmentURLs ?? []
        let timescale = fields.timescale ?? 1
        let context = SegmentContext(key: nil, initSection: try initialization(fields, base: base, template: template))
        var durations: [Double]
        if let timeline = fields.timeline {
            let entries = try timelineEntries(
                timeline, timescale: timescale, presentationTimeOffset: fields.presentationTimeOffset ?? 0,
                periodDuration: periodDuration, budget: budget)
            durations = entries.prefix(urls.count).map { Double($0.duration) / Double(timescale) }
            if entries.count < urls.count {
                warn(fields.line, "SegmentList has \(urls.count) SegmentURLs but its timeline only \(entries.count) entries; the extra URLs are ignored")
            }
        } else if let duration = fields.duration {
            let nominal = Double(duration) / Double(timescale)
            // At most as many URLs as fill the period; the count is compared as a Double, as
            // it may be far beyond any integer.
            let exact = periodSegmentCount(duration: duration, timescale: timescale, periodDuration: periodDuration)
            var used = urls.count
            if let exact, exact < Double(urls.count) { used = exact <= 0 ? 0 : Int(exact) }
            let fillsPeriod = exact.map { Double(used) == $0 } ?? false
            try budget.check(used, "the SegmentList", line: fields.line, reader: reader)
            durations = (0..<used).map { index in
                guard index == used - 1, let periodDuration, fillsPeriod else { return nominal }
                return min(nominal, periodDuration - Double(index) * nominal)
            }
        } else if urls.count <= 1 {
            try budget.check(urls.count, "the SegmentList", line: fields.line, reader: reader)
            durations = urls.isEmpty ? [] : [periodDuration ?? 0]
        } else {
            throw reader.failure(fields.line, "SegmentList with \(urls.count) SegmentURLs has neither @duration nor a SegmentTimeline")
        }
        var resolver = URLResolver(base: base)
        var segments: [Segment] = []
        segments.reserveCapacity(durations.count)
        for (index, duration) in durations.enumerated() {
            let entry = urls[index]
            let uri = entry.media ?? ""
            let location = try segmentLocation(uri, resolver: &resolver, base: base, line: fields.line)
            segments.append(
                Segment(
                    uri: uri.isEmpty ? base.absoluteString : uri, location: location, duration: duration,
                    byteRange: entry.mediaRange, context: context))
        }
        return segments
    }
}
