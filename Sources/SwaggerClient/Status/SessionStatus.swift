import FoundationEssentials

/// A stored session as `swaggerctl status` shows it. It never holds a token.
public struct SessionStatus: Sendable, Hashable, Codable {
    /// The API's base URL.
    public var server: String
    /// The e-mail logged in with.
    public var email: String
    /// The user name the server returned at login.
    public var username: String?
    /// The app id sent at login.
    public var appId: String
    /// The backend holding the token.
    public var keystore: KeystoreKind
    /// When the session was saved.
    public var savedAt: Date
    /// When the token expires, if it is a JWT with `exp`.
    public var expiresAt: Date?
    /// Whether commands use this session by default on its server.
    public var active: Bool
    /// Why it is the active one; `nil` for a session that is not.
    public var activeBecause: ActiveReason?
    /// Whether the access token had expired when the list was made; `nil` when its expiry is not known.
    public var expired: Bool?
    /// Whether a refresh token is stored; `nil` when the record predates refresh tokens.
    public var refreshable: Bool?
    /// What the server said of this session, for the one that `status --check` asked about.
    public var check: Check?
    /// The kind of server.
    public var kind: ServerKind = .original
    /// How the server is spoken to, when it is not the original API: its endpoints, as saved at login.
    public var dialect: ServerDialect?

    /// Why a session is its server's active one.
    public enum ActiveReason: String, Sendable, Hashable, Codable {
        /// It is the only session on its server.
        case only
        /// `swaggerctl switch` chose it.
        case switched
        /// It logged in after every other session on its server was chosen.
        case latestLogin = "latest-login"
    }

    /// What `status --check` learnt from the server.
    public enum Check: String, Sendable, Hashable, Codable {
        /// The server accepted the access token.
        case valid
        /// The tokens were refreshed, and the server accepted the new access token.
        case refreshed
    }

    /// The session's key.
    public var account: Account { Account(server: server, email: email) }

    /// The status of every stored session, in ``SessionIndex/records()`` order; the first on each server is its
    /// active one.
    /// - Parameters:
    ///   - records: The stored sessions, most recently active first.
    ///   - now: The current time, which decides what has expired.
    /// - Returns: One status each.
    public static func list(_ records: [SessionRecord], now: Date) -> [SessionStatus] {
        var seen: Set<String> = []
        let perServer = Dictionary(grouping: records, by: \.server).mapValues(\.count)
        return records.map { record in
            let active = seen.insert(record.server).inserted
            let reason = active ? activeReason(record, alone: perServer[record.server] == 1) : nil
            return SessionStatus(
                server: record.server, email: record.email, username: record.username, appId: record.appId,
                keystore: record.keystore, savedAt: record.savedAt, expiresAt: record.expiresAt, active: active,
                activeBecause: reason, expired: record.expiresAt.map { MainCoordinator.hasExpired($0, now: now) },
                refreshable: record.refreshable, kind: record.kind, dialect: record.dialect)
        }
    }

    private static func activeReason(_ record: SessionRecord, alone: Bool) -> ActiveReason {
        if alone { return .only }
        if let selected = record.selectedAt, selected >= record.savedAt { return .switched }
        return .latestLogin
    }

    /// The state in words, after the server's URL: `active`, and whether the access token has expired and
    /// what happens about it. A session with an expired token is never called plainly active.
    var note: String? {
        var parts: [String] = []
        switch activeBecause {
        case .only?: parts.append("active")
        case .switched?: parts.append("active: chosen with swaggerctl switch")
        case .latestLogin?: parts.append("active: logged in most recently")
        case nil: break
        }
        if expired == true {
            parts.append(
                refreshable == false
                    ? "the access token has expired: log in again"
                    : "the access token has expired, and is refreshed on next use")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The rows that describe this session in a table.
    /// - Parameters:
    ///   - location: Where the keystore keeps tokens, such as a file path.
    ///   - now: The current time, for "expired" and "in 3 h".
    /// - Returns: Rows for ``TableRenderer``.
    public func rows(location: String, now: Date) -> [DetailsViewModel] {
        var rows = [
            DetailsViewModel(key: "Server", value: server + (note.map { " (\($0))" } ?? "")),
            DetailsViewModel(key: "E-mail", value: email),
        ]
        if let username { rows.append(DetailsViewModel(key: "User name", value: username)) }
        if let dialect {
            rows += Self.rows(for: dialect)
        } else {
            rows.append(DetailsViewModel(key: "App ID", value: appId))
        }
        rows += [
            DetailsViewModel(key: "Token in", value: "\(keystore.rawValue) (\(location))"),
            DetailsViewModel(key: "Saved", value: Self.format(savedAt, now: now)),
            DetailsViewModel(key: "Expires", value: expiresAt.map { Self.format($0, now: now) } ?? "unknown"),
        ]
        switch check {
        case .valid: rows.append(DetailsViewModel(key: "Checked", value: "valid: the server accepts the token"))
        case .refreshed:
            rows.append(DetailsViewModel(key: "Checked", value: "refreshed: the server accepts the new token"))
        case nil: break
        }
        return rows
    }

    /// The rows that say how a server of another kind is spoken to: what the flags and discovery decided.
    static func rows(for dialect: ServerDialect) -> [DetailsViewModel] {
        var rows = [
            DetailsViewModel(key: "Kind", value: dialect.kind.rawValue),
            DetailsViewModel(key: dialect.kind == .oauth2 ? "Token URL" : "Login URL", value: dialect.loginURL),
        ]
        if let refresh = dialect.refreshURL, refresh != dialect.loginURL {
            rows.append(DetailsViewModel(key: "Refresh URL", value: refresh))
        }
        rows += [
            DetailsViewModel(key: "Revoke URL", value: dialect.revocationURL ?? "none: logout is local only"),
            DetailsViewModel(key: "Profile URL", value: dialect.profileURL),
        ]
        if let clientID = dialect.clientID {
            let secret = dialect.usesClientSecret ? " (with a client secret, kept with the tokens)" : ""
            rows.append(DetailsViewModel(key: "Client ID", value: clientID + secret))
        }
        if let scope = dialect.scope { rows.append(DetailsViewModel(key: "Scope", value: scope)) }
        let defaults: TokenFields = dialect.kind == .oauth2 ? .oauth2 : .camelCase
        if dialect.fields != defaults {
            let fields = dialect.fields
            rows.append(
                DetailsViewModel(
                    key: "Token fields",
                    value: "\(fields.accessToken), \(fields.refreshToken), \(fields.expiresIn)"))
        }
        if let found = dialect.discoveredAt { rows.append(DetailsViewModel(key: "Found in", value: found)) }
        return rows
    }

    /// The text of `status`: one table per session, separated by blank lines.
    /// - Parameters:
    ///   - statuses: The sessions.
    ///   - location: Where a session's token is kept, such as a file path.
    ///   - renderer: The table renderer.
    ///   - now: The current time.
    /// - Returns: The text to print.
    public static func render(
        _ statuses: [SessionStatus], location: (SessionStatus) -> String, renderer: TableRenderer, now: Date
    ) -> String {
        statuses.map { renderer.render($0.rows(location: location($0), now: now)) }
            .joined(separator: "\n")
    }

    /// The sessions as a pretty JSON array, ending in a newline.
    /// - Parameter statuses: The sessions.
    /// - Returns: The JSON text.
    public static func json(_ statuses: [SessionStatus]) -> String {
        JSONOutput.render(statuses, fallback: "[]")
    }

    /// `2026-11-22 03:24:19 UTC (in 59 min)`: a UTC time stamp for people, and how far it is from `now`.
    static func format(_ date: Date, now: Date) -> String {
        let day = date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
        let time = date.formatted(.iso8601.time(includingFractionalSeconds: false).timeSeparator(.colon))
        return "\(day) \(time) UTC (\(RelativeTime.phrase(date, from: now)))"
    }
}
