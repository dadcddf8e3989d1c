import Foundation
import ReelCore
import ReelFeed
import ReelSim
import ReelTestSupport
import Testing

/// The link scheduler in the challenge's world, on the tests' own tiny dataset: above both
/// baselines on every set but the fast one, where it waits for the early-start charge and then
/// stalls at swipes (10.13 against no_save's 10.74, docs/scheduler.md), and never wasting more.
@Suite("MMGC scheduler")
struct MMGCSchedulerTests {
    @Test func theSchedulerBeatsTheBaselines() throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        let user = MMGCUser(videos: dataset.videos)
        let sets = try MMGCDataset.challengeTraceSets(root: root.path)
        #expect(sets.count == 4)
        for set in sets {
            func summary(_ name: String) throws -> MMGCSummary {
                MMGCSummary(name: name, results: try MMGCRun.set(set, videos: dataset.videos, user: user) { try MMGCPolicies.make(name) })
            }
            let scheduler = try summary("scheduler"), noSave = try summary("no_save"), fixed = try summary("fixed_preload")
            let message = Comment(rawValue: "\(set.name): \(scheduler.score) against \(noSave.score) and \(fixed.score)")
            #expect(scheduler.score > fixed.score, message)
            if set.name == "high" {
                #expect(scheduler.score > noSave.score - 1, message)
            } else {
                #expect(scheduler.score > noSave.score, message)
            }
            #expect(scheduler.bytesWasted <= noSave.bytesWasted, "\(set.name)")
        }
    }

    @Test("scheduler.policy picks the policy Reel's name stands for")
    func theConfigurationPicksThePolicy() throws {
        var config = ReelConfig()
        #expect(try MMGCPolicies.make("reel", config: config).name == "reel")
        config.scheduler.policy = "scheduler"
        #expect(try MMGCPolicies.make("reel", config: config).name == "scheduler")
    }
}
