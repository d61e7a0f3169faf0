import FoundationEssentials
import SwaggerModel

/// The decisions of a device-code login (RFC 8628): how long to wait before each poll of the token endpoint,
/// what each answer means, and when the code has expired. The owner asks for the code, shows it, sleeps and
/// polls; nothing here does I/O or reads a clock.
package struct DeviceFlow: Sendable {
    /// What to do next.
    package enum Next: Sendable {
        /// Sleep this long, then poll and send ``answered(_:elapsed:)`` or ``pollFailed(_:)``.
        case poll(after: Duration)
        /// The login is done: go on as a password login does, with the profile.
        case granted(TokenGrant)
        case fail(SessionFailure)
    }

    private let authorization: DeviceAuthorization
    private let server: ServerURL
    private let description: ServerDescription
    private var interval: Duration
    private var finished = false

    package init(_ authorization: DeviceAuthorization, server: ServerURL, description: ServerDescription) {
        self.authorization = authorization
        self.server = server
        self.description = description
        interval = min(authorization.interval, Self.longestWait, authorization.expiresIn)
    }

    /// The longest wait between two polls, whatever the server asks: a server's `interval` of 10⁹ seconds would
    /// otherwise put the first poll 31 years out.
    static let longestWait = Duration.seconds(60)

    /// The code is shown to the person; the first poll waits one interval.
    package func started() -> Next { .poll(after: interval) }

    /// A poll could not be made, or was refused for another reason than the flow's own.
    package mutating func pollFailed(_ error: APIServiceError) -> SessionFailure {
        precondition(!finished, "DeviceFlow: pollFailed after the flow ended")
        finished = true
        return .requestFailed(error, server: server, account: nil, description: description)
    }

    /// A poll answered, `elapsed` after the code was issued.
    package mutating func answered(_ answer: DevicePoll, elapsed: Duration) -> Next {
        precondition(!finished, "DeviceFlow: answered after the flow ended")
        switch answer {
        case .granted(let grant):
            finished = true
            return .granted(grant)
        case .pending:
            break
        case .slowDown:
            // §3.5: the interval grows by 5 seconds for this and every later poll.
            interval = min(interval + .seconds(5), Self.longestWait)
        case .denied:
            finished = true
            return .fail(.deviceLoginEnded(server: server, .denied))
        case .expired:
            finished = true
            return .fail(.deviceLoginEnded(server: server, .expired))
        }
        // A poll after the code has expired could only be refused.
        guard elapsed + interval <= authorization.expiresIn else {
            finished = true
            return .fail(.deviceLoginEnded(server: server, .expired))
        }
        return .poll(after: interval)
    }
}
