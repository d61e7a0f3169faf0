import FoundationEssentials
import SwaggerModel

/// What `swaggerctl status` shows: every stored session, and `SWAGGERCTL_TOKEN` when it is set. It never
/// holds a token.
package struct StatusReport: Sendable, Hashable {
    /// `SWAGGERCTL_TOKEN`, as far as status tells of it.
    package struct EnvironmentToken: Sendable, Hashable {
        /// When the token expires, if it is a JWT with `exp`.
        package var expiresAt: Date?
        /// What the server said, when `status --check` asked about this token.
        package var check: SessionStatus.Check?

        package init(expiresAt: Date?, check: SessionStatus.Check?) {
            self.expiresAt = expiresAt
            self.check = check
        }
    }

    /// The stored sessions, most recently active first.
    package var sessions: [SessionStatus]
    /// The sessions whose records cannot be read; `nil` for a record that does not say whose it is.
    package var damaged: [Account?] = []
    /// The session list's path, for what is said of damaged records.
    package var path = ""
    /// `SWAGGERCTL_TOKEN`, when it is set.
    package var environmentToken: EnvironmentToken?

    package init(
        sessions: [SessionStatus], damaged: [Account?] = [], path: String = "", environmentToken: EnvironmentToken?
    ) {
        self.sessions = sessions
        self.damaged = damaged
        self.path = path
        self.environmentToken = environmentToken
    }

    /// Whether there is nothing to use: no stored session and no `SWAGGERCTL_TOKEN`.
    package var isEmpty: Bool { sessions.isEmpty && environmentToken == nil }

    /// The error when a session listed cannot be used as it is, its token missing or unreadable; `nil` when every
    /// one can.
    package var lackingTokens: String? {
        let lacking = sessions.filter(\.lacksToken).count
        guard lacking > 0 else { return nil }
        return lacking == 1
            ? "A session has no token that can be read; its Problem row says what to do."
            : "\(lacking) sessions have no token that can be read; their Problem rows say what to do."
    }

    /// One warning for each record that cannot be read, saying how to remove it.
    package var warnings: [String] {
        damaged.map { account in
            guard let account else {
                return "\(path) holds a record that cannot be read and names no session; edit the file to remove it."
            }
            return "the session record for \(account.name) on \(account.server) in \(path) cannot be read; "
                + "`swaggerctl logout -s \(account.server) -e \(account.name)` removes it."
        }
    }

    /// The line for standard error when `SWAGGERCTL_TOKEN` is set, saying that it wins over the stored
    /// sessions; `nil` otherwise.
    package func notice(now: Date) -> String? {
        guard let environmentToken else { return nil }
        var line = "SWAGGERCTL_TOKEN is set: details and token use it instead of a stored session"
        if let expiry = environmentToken.expiresAt { line += "; it expires \(RelativeTime.stamp(expiry, now: now))" }
        switch environmentToken.check {
        case .valid: line += "; the server accepts it"
        case .refreshed, nil: break
        }
        return line + "."
    }
}
