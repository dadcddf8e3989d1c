import Foundation
import ReelCore
import ReelFeed
import ReelNet
import Synchronization
import Testing

@testable import ReelEngine

/// The engine's thumbnails go through the link desk as the simulation's do: under a policy that
/// decides, a card's thumbnail waits for the policy's `.fetchThumbnail`, placed where its card
/// stands; under today's it goes at once; the session's end lets a waiting one go unfetched.
@Suite("Link desk: thumbnails")
struct LinkDeskThumbnailTests {
    /// A policy that fetches the thumbnail of the card the test names in `grant` (once) and
    /// otherwise waits; the thumbnails of every state it is shown go to `seen`.
    struct Granting: DownloadPolicy {
        let name = "granting"
        let grant: Grant
        let seen: AsyncStream<[ThumbnailState]>.Continuation

        mutating func decide(_ state: LinkState) -> DownloadDecision {
            seen.yield(state.thumbnails)
            if let card = grant.card.withLock({ card in defer { card = nil }; return card }) { return .fetchThumbnail(card) }
            return .wait(until: .infinity)
        }
    }

    /// The card whose thumbnail the policy grants next, set by the test.
    final class Grant: Sendable {
        let card = Mutex<String?>(nil)
    }

    @Test("a thumbnail waits for the policy's turn, placed where its card stands: on screen with a player, in the preload order where its video would be, else behind")
    func aThumbnailWaitsForItsTurn() async throws {
        let (seen, continuation) = AsyncStream<[ThumbnailState]>.makeStream()
        let desk = LinkDesk(policy: Granting(grant: Grant(), seen: continuation), meter: nil, maxTransfers: 3)
        desk.setOrder([(card: "a", urgent: false), (card: "b", urgent: false)])
        let mounted = desk.seat(card: "m")
        mounted.join(ladder: [300_000], durations: [2, 2], start: 0, probe: { ABRPlayhead(position: .zero, stalls: 0, playing: false) },
                     cached: { _, _ in nil }, received: nil, fill: nil)
        let turns = ["b", "m", "z"].map { card in Task { await desk.thumbnailTurn(card: card, bytes: 20_000) } }
        var states = seen.makeAsyncIterator()
        var placed: [String: Int] = [:]
        while placed.count < 3, let thumbnails = await states.next() {
            for thumbnail in thumbnails { placed[thumbnail.id] = thumbnail.distance }
        }
        // m has a player (on screen); b is second in the preload order; z is in it nowhere.
        #expect(placed == ["m": 0, "b": 2, "z": 3])
        desk.close()
        for turn in turns { #expect(await turn.value == false, "the session ended first: not fetched") }
        mounted.leave()
    }

    @Test("the policy's .fetchThumbnail lets that card's thumbnail go, and only that one; a cancelled wait fetches nothing")
    func theGrantedThumbnailGoes() async throws {
        let grant = Grant()
        let (seen, continuation) = AsyncStream<[ThumbnailState]>.makeStream()
        let desk = LinkDesk(policy: Granting(grant: grant, seen: continuation), meter: nil, maxTransfers: 3)
        let first = Task { await desk.thumbnailTurn(card: "x", bytes: 20_000) }
        let second = Task { await desk.thumbnailTurn(card: "y", bytes: 20_000) }
        var states = seen.makeAsyncIterator()
        while let thumbnails = await states.next(), Set(thumbnails.map(\.id)) != ["x", "y"] {}
        grant.card.withLock { $0 = "x" }
        #expect(await first.value == true)
        // y still waits: the policy sees it alone.
        while let thumbnails = await states.next(), thumbnails.map(\.id) != ["y"] {}
        second.cancel()
        #expect(await second.value == false)
    }

    @Test("under today's policy a thumbnail goes at once")
    func todayGrantsAtOnce() async {
        let desk = LinkDesk(policy: TodayPolicy(), meter: nil, maxTransfers: 3)
        #expect(await desk.thumbnailTurn(card: "x", bytes: 20_000) == true)
    }
}
