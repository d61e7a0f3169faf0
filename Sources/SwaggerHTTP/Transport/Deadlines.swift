import NIOCore
import Synchronization

/// The deadlines of a service's requests, kept by one timer rather than one each.
///
/// Given a deadline, AsyncHTTPClient sets a timer for each request and cancels it when the answer is in: 11,000
/// of the 274,000 instructions of a page of `api --paginate`. Here a request's deadline is noted, and a timer is
/// set only when none is, for the earliest deadline noted; a request that ends takes its note away and leaves the
/// timer. When the timer fires, it expires what is past its deadline and is set again for the earliest left.
/// Every request of a service is given the same time from when it starts, so the notes are in the order of their
/// deadlines, and the timer of a command's many requests fires once in each `timeout`.
final class Deadlines<Watched: Sendable>: Sendable {
    /// A request's note, to take away when it ends.
    struct Ticket: Sendable {
        fileprivate let number: UInt64
    }

    private struct Note {
        let number: UInt64
        let deadline: NIODeadline
        let watched: Watched
    }

    private struct State {
        /// In the order of their deadlines, which is the order they were made in.
        var notes: [Note] = []
        var made: UInt64 = 0
        /// Whether a timer is set, which stays so from when it is set until it has fired.
        var armed = false
    }

    private let timeout: TimeAmount
    private let loop: any EventLoop
    private let expire: @Sendable (Watched) -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeout: Each request's time, from ``watch(_:)``.
    ///   - loop: Where the timer runs, and whose clock tells the time.
    ///   - expire: Ends a request past its deadline, on `loop`.
    init(timeout: TimeAmount, on loop: any EventLoop, expire: @escaping @Sendable (Watched) -> Void) {
        self.timeout = timeout
        self.loop = loop
        self.expire = expire
    }

    /// Notes that `watched` has `timeout` from now, and sets the timer if none is set.
    func watch(_ watched: Watched) -> Ticket {
        let (ticket, arm) = state.withLock { state in
            // The time is read under the lock, so that the notes are in the order of their deadlines.
            let deadline = loop.now + timeout
            state.made += 1
            state.notes.append(Note(number: state.made, deadline: deadline, watched: watched))
            let arm = state.armed ? nil : deadline
            state.armed = true
            return (Ticket(number: state.made), arm)
        }
        if let arm { set(for: arm) }
        return ticket
    }

    /// Takes the note of a request that has ended, unless the timer already expired it.
    func release(_ ticket: Ticket) {
        state.withLock { state in
            // Near the front: a command has one request at a time, or two while the next page is asked for early.
            if let index = state.notes.firstIndex(where: { $0.number == ticket.number }) {
                state.notes.remove(at: index)
            }
        }
    }

    private func set(for deadline: NIODeadline) {
        loop.scheduleTask(deadline: deadline) { self.fire() }
    }

    private func fire() {
        let now = loop.now
        let (late, next) = state.withLock { state in
            let late = Array(state.notes.prefix { $0.deadline <= now })
            state.notes.removeFirst(late.count)
            state.armed = !state.notes.isEmpty
            return (late, state.notes.first?.deadline)
        }
        if let next { set(for: next) }
        for note in late { expire(note.watched) }
    }
}
