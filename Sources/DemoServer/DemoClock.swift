import Foundation
import Synchronization

/// The demo server's "now": the system's clock, moved forward by whatever a test asked for.
///
/// Token lifetimes, refresh-token expiry and revocation times all read it, so a test makes a token expire by
/// moving the clock instead of waiting. Only tests move it: in-process through ``advance(by:)``, or, with
/// `--test-clock`, through the loopback-only `POST /_test/clock?advance=SECONDS`.
package final class DemoClock: Sendable {
    private let offset = Mutex<Duration>(.zero)

    /// A clock that reads the system's time until it is moved.
    package init() {}

    package var now: Date {
        Date().addingTimeInterval(offset.withLock { $0 }.timeInterval)
    }

    package func advance(by interval: Duration) {
        offset.withLock { $0 += interval }
    }
}
