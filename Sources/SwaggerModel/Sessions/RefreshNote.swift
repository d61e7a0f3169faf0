import FoundationEssentials

/// What a refresh that could not reach its server leaves in its account's lock file, for the commands that were
/// waiting for the lock meanwhile: each takes the same failure as its own, rather than wait out the server again.
package struct RefreshNote: Sendable, Hashable, Codable {
    /// How the server could not be reached.
    package enum Failure: Sendable, Hashable, Codable {
        case timedOut
        case unreachable(String)
    }

    /// When the refresh failed.
    package var failedAt: Date
    /// The session it tried to renew, by when it was made, issued and due to expire: one renewed or logged in to
    /// since is another. The times are written exactly, as the shortest text that reads back as the same number:
    /// the files' dates are to the millisecond, and a date read from one is not always written back the same.
    package var session: String
    package var failure: Failure

    /// The note a refresh of `record` that failed with `error` leaves; `nil` for a failure that was not the
    /// server's being out of reach, which a waiter is better off meeting for itself.
    package init?(failedAt: Date, renewing record: SessionRecord, _ error: APIServiceError) {
        switch error {
        case .timedOut: failure = .timedOut
        case .unreachable(let reason): failure = .unreachable(reason)
        default: return nil
        }
        self.failedAt = failedAt
        session = Self.session(record)
    }

    private static func session(_ record: SessionRecord) -> String {
        [record.savedAt, record.issuedAt, record.expiresAt].map { $0.map { "\($0.timeIntervalSince1970)" } ?? "-" }
            .joined(separator: " ")
    }

    /// The failure, as the refresh met it.
    package var error: APIServiceError {
        switch failure {
        case .timedOut: .timedOut
        case .unreachable(let reason): .unreachable(reason)
        }
    }

    /// Whether the failure answers a command that began waiting for the lock at `waitingSince` to renew `record`:
    /// it failed after that command began waiting, renewing the same session.
    package func stands(for record: SessionRecord?, waitingSince: Date) -> Bool {
        guard let record else { return false }
        return failedAt >= waitingSince && Self.session(record) == session
    }

    /// The most of a lock file that is read as a note: far more than any note, and a bound on a file made large.
    package static let sizeLimit = 4096
}
