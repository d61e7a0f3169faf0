import Foundation
import Synchronization

/// The demo server's "now": the system's clock, moved forward by whatever a test asked for.
///
/// Token lifetimes, refresh-token expiry and revocation times all read it, so a test makes a token expire by
/// moving the clock instead of waiting. Only tests move it: in-process through ``advance(by:)``, or, with
/// `--test-clock`, through the loopback-only `POST /_test/clock?advance=SECONDS`.
package final class DemoClock: Sendable {
    /// Where a stopped clock stands; `nil` for the system's time.
    private let start: Date?
    private let offset = Mutex<Duration>(.zero)

    /// A clock that reads the system's time, moved by whatever it was advanced.
    package init() {
        start = nil
    }

    /// A clock that stands at `start` and moves only when advanced: an in-process test then reads no time that
    /// a busy machine could make pass.
    package init(stoppedAt start: Date) {
        self.start = start
    }

    package var now: Date {
        (start ?? Date()).addingTimeInterval(offset.withLock { $0 }.timeInterval)
    }

    package func advance(by interval: Duration) {
        offset.withLock { $0 += interval }
    }
}
