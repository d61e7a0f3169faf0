import FoundationEssentials
import SessionMachine
import SwaggerModel

/// A stored session as `swaggerctl status` shows it. It never holds a token.
package struct SessionStatus: Sendable, Hashable {
    package var server: ServerURL
    /// The server's name in the server registry, if it has one.
    package var serverName: ServerName?
    package var email: String
    /// The user name the server returned at login.
    package var username: String?
    /// The app id sent at login.
    package var appID: String
    package var backend: BackendKind
    package var savedAt: Date
    /// When the access token expires, when known.
    package var expiresAt: Date?
    /// Whether commands use this session by default on its server.
    package var active: Bool
    /// Why it is the active one; `nil` for a session that is not.
    var activeBecause: ActiveReason?
    /// Whether commands without `-s` and `-e` use this session: the active one on the default server.
    var isDefault = false
    /// Whether the access token had expired when the list was made; `nil` when its expiry is not known.
    package var expired: Bool?
    /// Whether a refresh token is stored; `nil` when the record predates refresh tokens.
    package var refreshable: Bool?
    /// What the server said of this session, for the one that `status --check` asked about.
    package var check: Check?
    /// How the server is spoken to.
    /// `nil` when nothing describes the server any more: the session cannot be used until something does.
    package var serverDescription: ServerDescription?
    /// `SignIn.client` for a client's own session; `nil` for a person's.
    package var signIn: SignIn?
    /// The thumbprint of the DPoP key the session's tokens are bound to; `nil` for bearer tokens.
    package var proofKey: String?
    /// Whether the session's client proves itself with its certificate in TLS.
    package var presentsCertificate: Bool?
    /// What the token store holds of the session, as `status` looked it up; `nil` when it did not look.
    package var token: TokenState?

    /// What the token store holds of a session. Nothing of the token itself is kept.
    package enum TokenState: Sendable, Hashable {
        case stored
        /// The record is there, but its store holds no token for it.
        case missing
        /// The store could not be read, in its own words (a locked keyring, no Secret Service).
        case unreadable(String)
    }

    /// Whether the session cannot be used as it is: its token is missing from its store, or cannot be read.
    package var lacksToken: Bool {
        switch token {
        case .missing?, .unreadable?: true
        case .stored?, nil: false
        }
    }

    /// Why a session is its server's active one.
    package enum ActiveReason: String, Sendable, Hashable, Codable {
        /// It is the only session on its server.
        case only
        /// `swaggerctl switch` chose it.
        case switched
        /// It logged in after every other session on its server was chosen.
        case latestLogin = "latest-login"
    }

    /// What `status --check` learnt from the server.
    package enum Check: String, Sendable, Hashable, Codable {
        /// The server accepted the access token.
        case valid
        /// The tokens were refreshed, and the server accepted the new access token.
        case refreshed
    }

    /// The session's key.
    package var account: Account { Account(server: server, name: email) }

    /// The status of every stored session, in `SessionList.records()` order; the first on each server is its
    /// active one, and the active one on `defaultServer` is the default.
    package static func list(_ records: [SessionRecord], now: Date, defaultServer: ServerURL? = nil)
        -> [SessionStatus]
    {
        var seen: Set<ServerURL> = []
        let perServer = Dictionary(grouping: records, by: \.server).mapValues(\.count)
        return records.map { record in
            let active = seen.insert(record.server).inserted
            let reason = active ? activeReason(record, alone: perServer[record.server] == 1) : nil
            return SessionStatus(
                server: record.server, email: record.name, username: record.username, appID: record.appID,
                backend: record.backend, savedAt: record.savedAt, expiresAt: record.expiresAt, active: active,
                activeBecause: reason, isDefault: active && record.server == defaultServer,
                expired: record.expiresAt.map { Expiry.hasExpired($0, now: now) },
                refreshable: record.refreshable, serverDescription: record.serverDescription, signIn: record.signIn,
                proofKey: record.proofKey, presentsCertificate: record.presentsCertificate)
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
        var parts: [String] = serverName.map { ["named \($0)"] } ?? []
        if isDefault { parts.append("default") }
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

    /// The rows that describe this session in a table: the server, the account, where the token is, when it
    /// expires, and what is wrong, if anything; with `verbose`, how it signed in and what its requests send too.
    /// - Parameters:
    ///   - location: Where the backend keeps tokens, such as a file path.
    ///   - now: The current time, for "expired" and "in 3 h".
    package func rows(location: String, now: Date, verbose: Bool = false) -> [DetailsViewModel] {
        var rows = [
            DetailsViewModel(key: "Server", value: server.string + (note.map { " (\($0))" } ?? "")),
            DetailsViewModel(key: "Account", value: email),
            // HTTP Basic keeps no token: the password itself is what is kept, and the person should know.
            DetailsViewModel(
                key: serverDescription?.login.sendsNothing == true ? "Password in" : "Token in",
                value: "\(backend.rawValue) (\(location))"),
            DetailsViewModel(key: "Expires", value: expiresAt.map { RelativeTime.stamp($0, now: now) } ?? "unknown"),
        ]
        if let problem { rows.append(DetailsViewModel(key: "Problem", value: problem)) }
        if verbose { rows += details(now: now) }
        switch check {
        case .valid: rows.append(DetailsViewModel(key: "Checked", value: "valid: the server accepts the token"))
        case .refreshed:
            rows.append(DetailsViewModel(key: "Checked", value: "refreshed: the server accepts the new token"))
        case nil: break
        }
        return rows
    }

    /// What is wrong with the session's token, and what to do about it.
    private var problem: String? {
        let login = signIn == .client ? account.clientLoginCommand : account.loginCommand
        return switch token {
        case .missing?: "no token in \(backend.rawValue): log in again (`\(login)`)"
        case .unreadable(let reason)?: "the token cannot be read: \(reason)"
        case .stored?, nil: nil
        }
    }

    /// The rows `--verbose` adds: who the server says signed in, how, and what the session's requests send.
    private func details(now: Date) -> [DetailsViewModel] {
        var rows: [DetailsViewModel] = []
        if let username { rows.append(DetailsViewModel(key: "User name", value: username)) }
        if signIn == .client {
            rows.append(
                DetailsViewModel(
                    key: "Signs in", value: "as the client itself (client credentials), again when the token expires"))
        }
        // The app id is the session's own, for a server whose login sends one. How the server is spoken to is the
        // server's: `server show` says it whole.
        if serverDescription?.login.request?.inputs.contains("app_id") == true {
            rows.append(DetailsViewModel(key: "App ID", value: appID))
        }
        rows.append(
            DetailsViewModel(
                key: "Sends",
                value: serverDescription.map(ServerView.sends) ?? "nothing: no description (`swaggerctl server set`)"))
        rows.append(DetailsViewModel(key: "Saved", value: RelativeTime.stamp(savedAt, now: now)))
        if presentsCertificate == true {
            rows.append(
                DetailsViewModel(
                    key: "Certificate", value: "presented in TLS (tls_client_auth); the tokens are bound to it"))
        }
        if let proofKey {
            rows.append(DetailsViewModel(key: "Bound to", value: "a DPoP key (RFC 9449), thumbprint \(proofKey)"))
        }
        return rows
    }

    /// The text of `status`: one table per session, separated by blank lines. `location` says where a session's
    /// token is kept, such as a file path.
    package static func render(
        _ statuses: [SessionStatus], location: (SessionStatus) -> String, renderer: TableRenderer, now: Date,
        verbose: Bool = false
    ) -> String {
        statuses.map { renderer.render($0.rows(location: location($0), now: now, verbose: verbose)) }
            .joined(separator: "\n")
    }

    /// The sessions as a pretty JSON array, ending in a newline.
    package static func json(_ statuses: [SessionStatus]) -> String {
        JSONOutput.render(statuses, fallback: "[]")
    }
}

extension SessionStatus: Codable {
    // The names `status --format json` prints; the server's description is in the description language.
    private enum CodingKeys: String, CodingKey {
        case server, serverName, email, username, appID = "appId", backend = "keystore", savedAt, expiresAt, active
        case activeBecause, expired, refreshable, check, preset, serverDescription = "description"
        case isDefault = "default", signIn, proofKey = "dpopKey", presentsCertificate, token, tokenProblem
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decode(ServerURL.self, forKey: .server)
        serverName = try container.decodeIfPresent(ServerName.self, forKey: .serverName)
        email = try container.decode(String.self, forKey: .email)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        appID = try container.decode(String.self, forKey: .appID)
        backend = try container.decode(BackendKind.self, forKey: .backend)
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        active = try container.decode(Bool.self, forKey: .active)
        activeBecause = try container.decodeIfPresent(ActiveReason.self, forKey: .activeBecause)
        isDefault = try container.decode(Bool.self, forKey: .isDefault)
        signIn = try container.decodeIfPresent(SignIn.self, forKey: .signIn)
        proofKey = try container.decodeIfPresent(String.self, forKey: .proofKey)
        presentsCertificate = try container.decodeIfPresent(Bool.self, forKey: .presentsCertificate)
        expired = try container.decodeIfPresent(Bool.self, forKey: .expired)
        refreshable = try container.decodeIfPresent(Bool.self, forKey: .refreshable)
        check = try container.decodeIfPresent(Check.self, forKey: .check)
        token =
            switch try container.decodeIfPresent(String.self, forKey: .token) {
            case "stored": .stored
            case "missing": .missing
            case "unreadable": .unreadable(try container.decodeIfPresent(String.self, forKey: .tokenProblem) ?? "")
            default: nil
            }
        let json = try container.decodeIfPresent(JSONValue.self, forKey: .serverDescription) ?? .null
        do throws(ServerDescription.Invalid) {
            serverDescription = json == .null ? nil : try ServerDescription(json: json, under: server)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .serverDescription, in: container, debugDescription: error.reason)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encodeIfPresent(serverName, forKey: .serverName)
        try container.encode(email, forKey: .email)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encode(appID, forKey: .appID)
        try container.encode(backend, forKey: .backend)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encode(active, forKey: .active)
        try container.encodeIfPresent(activeBecause, forKey: .activeBecause)
        try container.encode(isDefault, forKey: .isDefault)
        try container.encodeIfPresent(signIn, forKey: .signIn)
        try container.encodeIfPresent(proofKey, forKey: .proofKey)
        try container.encodeIfPresent(presentsCertificate, forKey: .presentsCertificate)
        try container.encodeIfPresent(expired, forKey: .expired)
        try container.encodeIfPresent(refreshable, forKey: .refreshable)
        try container.encodeIfPresent(check, forKey: .check)
        switch token {
        case .stored?: try container.encode("stored", forKey: .token)
        case .missing?: try container.encode("missing", forKey: .token)
        case .unreadable(let reason)?:
            try container.encode("unreadable", forKey: .token)
            try container.encode(reason, forKey: .tokenProblem)
        case nil: break
        }
        try container.encodeIfPresent(serverDescription?.preset, forKey: .preset)
        try container.encode(serverDescription?.json() ?? .null, forKey: .serverDescription)
    }
}
