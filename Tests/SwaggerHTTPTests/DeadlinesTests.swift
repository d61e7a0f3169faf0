import NIOCore
import NIOEmbedded
import Testing

@testable import SwaggerHTTP

@Suite("Deadlines: one timer for a service's requests, on a clock the test moves", .timeLimit(.minutes(5)))
struct DeadlinesTests {
    static func deadlines(on loop: EmbeddedEventLoop, _ expired: Lines) -> Deadlines<String> {
        Deadlines(timeout: .seconds(30), on: loop) { expired.add($0) }
    }

    @Test("a request is expired at its deadline, not a nanosecond before")
    func atItsDeadline() {
        let loop = EmbeddedEventLoop()
        let expired = Lines()
        let deadlines = Self.deadlines(on: loop, expired)
        _ = deadlines.watch("a")
        loop.advanceTime(by: .seconds(30) - .nanoseconds(1))
        #expect(expired.all == [])
        loop.advanceTime(by: .nanoseconds(1))
        #expect(expired.all == ["a"])
    }

    @Test("a request that ended is never expired; the timer its deadline set is set again for the next")
    func endedInTime() {
        let loop = EmbeddedEventLoop()
        let expired = Lines()
        let deadlines = Self.deadlines(on: loop, expired)
        deadlines.release(deadlines.watch("a"))
        loop.advanceTime(by: .seconds(10))
        let b = deadlines.watch("b")
        loop.advanceTime(by: .seconds(10))
        _ = deadlines.watch("c")
        // a's deadline: the timer fires, finds b and c within theirs, and is set for b's.
        loop.advanceTime(by: .seconds(10))
        #expect(expired.all == [])
        loop.advanceTime(by: .seconds(10))
        #expect(expired.all == ["b"])
        // Ended after its deadline: nothing more to do.
        deadlines.release(b)
        loop.advanceTime(by: .seconds(10))
        #expect(expired.all == ["b", "c"])
    }

    @Test("requests that all end in time, as the pages of a long --paginate do, are never expired")
    func manyInTime() {
        let loop = EmbeddedEventLoop()
        let expired = Lines()
        let deadlines = Self.deadlines(on: loop, expired)
        var previous: Deadlines<String>.Ticket?
        // Two at a time, as the next page is asked for before this one is read: 2,000 pages over 200 seconds.
        for page in 0..<2_000 {
            let ticket = deadlines.watch("page \(page)")
            if let previous { deadlines.release(previous) }
            previous = ticket
            loop.advanceTime(by: .milliseconds(100))
        }
        #expect(expired.all == [])
        loop.advanceTime(by: .seconds(30))
        #expect(expired.all == ["page 1999"])
    }
}
