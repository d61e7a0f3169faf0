import FoundationEssentials

/// What `swaggerctl refresh` prints.
public enum RefreshReport {
    /// `Refreshed the session for E on S: the access token expires 2026-11-22 12:00:00 UTC (in 15 min).`
    /// - Parameters:
    ///   - account: The refreshed session's account.
    ///   - expiry: When the new access token expires, if it says.
    ///   - now: The current time.
    /// - Returns: The line, without a newline.
    public static func line(account: Account, expiry: Date?, now: Date) -> String {
        let when =
            expiry.map { "the access token expires \(SessionStatus.format($0, now: now))" }
            ?? "the server did not say when the new access token expires"
        return "Refreshed the session for \(account.email) on \(account.server): \(when)."
    }
}

/// What `swaggerctl logout --all` prints.
public enum LogoutReport {
    /// `Logged out 3 sessions on 2 servers.`, or that there was nothing to remove.
    public static func line(removed: [Account]) -> String {
        guard !removed.isEmpty else { return "Not logged in anywhere; nothing to remove." }
        let servers = Set(removed.map(\.server)).count
        let sessions = removed.count == 1 ? "1 session" : "\(removed.count) sessions"
        return "Logged out \(sessions) on \(servers == 1 ? "1 server" : "\(servers) servers")."
    }
}
