import FoundationEssentials

/// What `swaggerctl status` shows: every stored session, and `SWAGGERCTL_TOKEN` when it is set. It never
/// holds a token.
public struct StatusReport: Sendable, Hashable {
    /// `SWAGGERCTL_TOKEN`, as far as status tells of it.
    public struct EnvironmentToken: Sendable, Hashable {
        /// When the token expires, if it is a JWT with `exp`.
        public var expiresAt: Date?
        /// What the server said, when `status --check` asked about this token.
        public var check: SessionStatus.Check?
    }

    /// The stored sessions, most recently active first.
    public var sessions: [SessionStatus]
    /// The sessions whose records cannot be read; `nil` for a record that does not say whose it is.
    public var damaged: [Account?] = []
    /// The session list's path, for what is said of damaged records.
    public var path = ""
    /// `SWAGGERCTL_TOKEN`, when it is set.
    public var environmentToken: EnvironmentToken?

    /// Whether there is nothing to use: no stored session and no `SWAGGERCTL_TOKEN`.
    public var isEmpty: Bool { sessions.isEmpty && environmentToken == nil }

    /// One warning for each record that cannot be read, saying how to remove it.
    public var warnings: [String] {
        damaged.map { account in
            guard let account else {
                return "\(path) holds a record that cannot be read and names no session; edit the file to remove it."
            }
            return "the session record for \(account.email) on \(account.server) in \(path) cannot be read; "
                + "`swaggerctl logout -s \(account.server) -e \(account.email)` removes it."
        }
    }

    /// The line for standard error when `SWAGGERCTL_TOKEN` is set, saying that it wins over the stored
    /// sessions; `nil` otherwise.
    public func notice(now: Date) -> String? {
        guard let environmentToken else { return nil }
        var line = "SWAGGERCTL_TOKEN is set: details and token use it instead of a stored session"
        if let expiry = environmentToken.expiresAt { line += "; it expires \(SessionStatus.format(expiry, now: now))" }
        switch environmentToken.check {
        case .valid: line += "; the server accepts it"
        case .refreshed, nil: break
        }
        return line + "."
    }
}

extension SessionController {
    /// The stored sessions, and `SWAGGERCTL_TOKEN` when it is set. With `check`, the session that it selects is
    /// first checked with the server (refreshed if needed), and its status says so.
    /// - Parameter check: The session to check, from `select(…, usingEnvironmentToken: true)`, or `nil`.
    /// - Returns: The report.
    /// - Throws: ``SwaggerError``: what the check met (ended 4, unreachable 3), or an unreadable session list.
    public func status(checking check: SessionSelection?) async throws(SwaggerError) -> StatusReport {
        var result: SessionStatus.Check?
        if let check {
            let outcome = try await profile(check, allowSaved: false)
            result = outcome.origin == .server(refreshed: true) ? .refreshed : .valid
        }
        var sessions = SessionStatus.list(try sessions(), now: Date())
        if let account = check?.record?.account, let checked = sessions.firstIndex(where: { $0.account == account }) {
            sessions[checked].check = result
        }
        let environment = configuration.environmentToken.map { token in
            StatusReport.EnvironmentToken(
                expiresAt: JWTClaims.expiry(of: token), check: check?.environmentToken == nil ? nil : result)
        }
        return StatusReport(
            sessions: sessions, damaged: try index.damaged(), path: index.path, environmentToken: environment)
    }
}
