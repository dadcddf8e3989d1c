import ReelCore

/// Plays an oracle's plan through the real simulator: each planned download in turn; when its
/// video has not entered the queue yet, a wait until the playing video ends (its chunks are all
/// fetched by then); a download whose video was already swiped away is skipped; once the plan is
/// done, waits until the user leaves. `skipped` and `waited` say whether the relaxation bound.
package struct MMGCOraclePlan: MMGCDecider, Sendable {
    package let downloads: [MMGCOracle.Download]
    private var next = 0
    package private(set) var skipped = 0
    package private(set) var waited = 0

    package init(_ downloads: [MMGCOracle.Download]) {
        self.downloads = downloads
    }

    package mutating func decide(_ observation: MMGCObservation, in session: MMGCSession?) throws -> MMGCAction {
        guard let session else { throw ReelError(.internalFailure, "the oracle's plan plays only inside the simulator") }
        while next < downloads.count {
            let download = downloads[next]
            let position = download.video - session.playing
            if position < 0 {
                skipped += 1
                next += 1
                continue
            }
            guard position < session.queue.count else {
                waited += 1
                let head = session.queue[0]
                return .sleep(ms: max(1, session.user.watchMs[head.index] - head.playedMs))
            }
            guard session.queue[position].downloaded == download.chunk else {
                throw ReelError(.internalFailure, "the oracle's plan fetches chunk \(download.chunk) of video \(download.video), but its next is \(session.queue[position].downloaded)")
            }
            next += 1
            return .download(video: download.video, level: download.level)
        }
        return .sleep(ms: 1000)
    }
}
