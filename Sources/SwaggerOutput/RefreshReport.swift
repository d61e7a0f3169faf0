import FoundationEssentials
import SessionMachine
import SwaggerModel

/// What `swaggerctl refresh` prints.
package enum RefreshReport {
    /// `Refreshed the session for E on S: the access token expires 2026-11-22 12:00:00 UTC (in 15 min).`, or
    /// that the server gave no refresh token and how long the access token is still good.
    package static func line(_ outcome: RefreshPurpose.Step, now: Date) -> String {
        switch outcome {
        case .renewed(let record):
            let when =
                record.expiresAt.map { "the access token expires \(RelativeTime.stamp($0, now: now))" }
                ?? "the server did not say when the new access token expires"
            return "Refreshed the session for \(record.name) on \(record.server): \(when)."
        case .notRenewable(let record):
            let until =
                record.expiresAt.map { "; its access token is good until \(RelativeTime.stamp($0, now: now))" }
                ?? ""
            return "\(record.server) gave no refresh token for \(record.name), so there is nothing to renew\(until)."
        }
    }
}

/// What `swaggerctl logout --all` prints.
package enum LogoutReport {
    /// A logout with nothing to remove on `server` (for `name`, when one was given), naming who is logged in there
    /// or, with nobody, the servers that have sessions.
    package static func nothingToRemove(on server: ServerURL, name: String?, sessions: [SessionRecord]) -> String {
        let what = name.map { "\($0) has no session on \(server)" } ?? "Not logged in to \(server)"
        return "\(what)\(Account.othersClause(on: server, among: sessions)). Nothing to remove."
    }

    /// `Logged out 3 sessions on 2 servers.`, or that there was nothing to remove.
    package static func line(removed: [Account]) -> String {
        guard !removed.isEmpty else { return "Not logged in anywhere; nothing to remove." }
        let servers = Set(removed.map(\.server)).count
        let sessions = removed.count == 1 ? "1 session" : "\(removed.count) sessions"
        return "Logged out \(sessions) on \(servers == 1 ? "1 server" : "\(servers) servers")."
    }
}
