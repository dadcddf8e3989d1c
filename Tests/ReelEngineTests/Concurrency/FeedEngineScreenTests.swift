import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia
import ReelTestSupport
import Testing

/// What a screen reads from a `FeedEngine` without waiting for it: the snapshot (layout, each
/// card's state and play, totals that end as the summary's) and the pictures to draw, on a
/// manual clock with fake players that show a picture once played.
@Suite("Feed engine, what a screen reads")
struct FeedEngineScreenTests {
    static func picture() throws -> Picture {
        let bytes = [UInt8](try Data(contentsOf: PackagePaths.samples.appendingPathComponent("images/thumbs/s01.jpg")))
        return try Picture.image(bytes, name: "s01.jpg")
    }

    @Test("the snapshot follows the cards and the pictures follow the players; the totals end as the summary's")
    func snapshotAndPictures() async throws {
        let picture = try Self.picture()
        let rig = try FeedEngineLiveTests.Rig(picture: picture)
        let engine = rig.engine
        #expect(engine.snapshot.phase == .launching)
        #expect(engine.snapshot.layout.count == 0)
        let first = "\(rig.model.items[0].id)/0"
        let before = engine.snapshot.version
        engine.show()
        await rig.run(to: 2)
        var snapshot = engine.snapshot
        #expect(snapshot.version > before)
        #expect(snapshot.phase == .shown)
        #expect(snapshot.layout.count > 0 && snapshot.model.count == snapshot.layout.count)
        #expect(snapshot.layout.frames == Array(rig.layout.frames.prefix(snapshot.layout.count)))
        let card = snapshot.card(first)
        #expect(card.state == .active && card.playing && card.mounted, "\(card)")
        #expect(!card.waitingForFirstFrame && card.lastTTFFMs == 1, "\(card)")
        #expect(engine.picture(card: first) === picture)
        #expect(engine.thumbnail(card: first) === picture)
        #expect(engine.picture(card: "nowhere/0") == nil && engine.thumbnail(card: "nowhere/0") == nil)
        #expect(snapshot.card("nowhere/0") == FeedSnapshot.Card())

        // Scrolled well past: the first card stops, unmounts and shows no picture any more.
        let second = try rig.widget(.short)
        await rig.scroll(from: 0, to: rig.top(of: second) + 2 * rig.layout.viewport.height, over: 1)
        await rig.run(to: 6)
        snapshot = engine.snapshot
        #expect(!snapshot.card(first).playing && !snapshot.card(first).mounted, "\(snapshot.card(first))")
        #expect(engine.picture(card: first) == nil)
        #expect(engine.thumbnail(card: first) === picture, "a thumbnail outlives its card's player")
        #expect(snapshot.offset == rig.top(of: second) + 2 * rig.layout.viewport.height)

        let outcome = await engine.close()
        snapshot = engine.snapshot
        let summary = outcome.summary
        #expect(snapshot.phase == .closed)
        #expect(snapshot.cards.values.allSatisfy { !$0.playing && !$0.mounted })
        #expect(snapshot.totals.plays == summary.plays && summary.plays >= 2)
        #expect(snapshot.totals.stalls == summary.stalls.count)
        #expect(snapshot.totals.errors == summary.errors)
        #expect(snapshot.totals.networkBytes == summary.cdn.bytes && snapshot.totals.networkRequests == summary.cdn.requests)
        #expect(snapshot.totals.bytesPlayed == summary.bytesPlayed)
        #expect(snapshot.totals.decoders == summary.decoders)
    }

    /// The feed's sound is its shorts': their players are asked to decode it, carousel cards'
    /// never (they play muted, as on a phone).
    @Test func onlyShortsAreAskedForTheirSound() async throws {
        let rig = try FeedEngineLiveTests.Rig()
        rig.engine.show()
        await rig.run(to: 2)
        let carousel = try rig.widget(.carousel)
        await rig.scroll(from: 0, to: rig.top(of: carousel), over: 1)
        await rig.run(to: 5)
        _ = await rig.engine.close()
        let asked = rig.performers.soundAsked.withLock { $0 }
        var types: [WidgetType: Set<Bool>] = [:]
        for (card, sound) in asked {
            let ref = try #require(rig.model.card(id: card), "\(card)")
            let type = try #require(rig.model.describe(ref).type)
            types[type, default: []].insert(sound)
        }
        #expect(types[.short] == [true] && types[.carousel] == [false], "\(asked)")
    }

    @Test func anEngineWithoutPicturesHasNoneToShow() async throws {
        let rig = try FeedEngineLiveTests.Rig()
        rig.engine.show()
        await rig.run(to: 2)
        let first = "\(rig.model.items[0].id)/0"
        #expect(rig.engine.snapshot.card(first).playing)
        #expect(rig.engine.picture(card: first) == nil && rig.engine.thumbnail(card: first) == nil)
        _ = await rig.engine.close()
    }

    @Test func theShelfKeepsTheNewestPicturesUsed() throws {
        let picture = try Self.picture(), other = try Self.picture(), third = try Self.picture()
        var shelf = PictureShelf(capacity: 2)
        shelf.put("a", picture)
        shelf.put("b", other)
        #expect(shelf.take("a") === picture)
        shelf.put("c", third)
        #expect(shelf.count == 2)
        #expect(shelf.take("b") == nil, "the least recently used went first")
        #expect(shelf.take("a") === picture && shelf.take("c") === third)
        shelf.put("a", other)
        #expect(shelf.take("a") === other && shelf.count == 2)
    }
}
