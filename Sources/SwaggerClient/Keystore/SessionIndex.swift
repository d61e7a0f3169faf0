import FoundationEssentials

/// What swaggerctl knows about a stored session, apart from its secrets.
public struct SessionRecord: Sendable, Hashable, Codable {
    /// The API's base URL.
    public var server: String
    /// The e-mail the person logged in with.
    public var email: String
    /// The app id sent at login; later commands reuse it.
    public var appId: String
    /// The user name the server returned at login, if any.
    public var username: String?
    /// Which backend holds the tokens.
    public var keystore: KeystoreKind
    /// When the session was saved.
    public var savedAt: Date
    /// When the access token expires, when it is a JWT with an `exp` claim.
    public var expiresAt: Date?
    /// When the access token was issued, when it is a JWT with an `iat` claim.
    public var issuedAt: Date?
    /// Whether a refresh token is stored with the access token; `nil` in records written before refresh
    /// tokens were used, which are treated as refreshable until the store is read.
    public var refreshable: Bool?
    /// Whether the person allowed credentials over plain `http://` to this server at login (`--allow-http`);
    /// `nil` where it was not needed.
    public var allowsPlainHTTP: Bool?
    /// When `swaggerctl switch` chose this account; `nil` if it never did.
    public var selectedAt: Date?
    /// How to talk to the server when it is not the original API; `nil` for the original API.
    public var dialect: ServerDialect?

    /// The kind of server.
    public var kind: ServerKind { dialect?.kind ?? .original }

    /// When this session last became the one to use: its login, or a later `switch` to it. The latest on a
    /// server is that server's active session, and the latest overall names the default server.
    public var activeSince: Date { max(savedAt, selectedAt ?? savedAt) }

    /// The key of this session.
    public var account: Account { Account(server: server, email: email) }

    /// Creates a record.
    /// - Parameters:
    ///   - account: The server and e-mail.
    ///   - appId: The app id sent at login.
    ///   - username: The user name the server returned.
    ///   - keystore: Which backend holds the tokens.
    ///   - savedAt: When the session was saved.
    ///   - expiresAt: When the access token expires.
    ///   - issuedAt: When the access token was issued.
    ///   - refreshable: Whether a refresh token is stored too.
    public init(
        account: Account, appId: String, username: String? = nil, keystore: KeystoreKind, savedAt: Date,
        expiresAt: Date? = nil, issuedAt: Date? = nil, refreshable: Bool? = nil
    ) {
        server = account.server
        email = account.email
        self.appId = appId
        self.username = username
        self.keystore = keystore
        self.savedAt = savedAt
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.refreshable = refreshable
    }
}

/// The list of stored sessions, `sessions.json` in the configuration folder.
///
/// The session that most recently logged in or was switched to is its server's active one, and the most
/// recent overall names the server that later commands use by default.
public struct SessionIndex: Sendable {
    /// The file's name inside the configuration folder.
    public static let fileName = "sessions.json"

    private let file: AccountList<SessionRecord>

    /// Creates an index in `directory`.
    /// - Parameter directory: The configuration folder.
    public init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "session list", empty: { [] }))
    }

    /// The index file's path.
    public var path: String { file.path }

    /// Every stored session, the most recently active first (``SessionRecord/activeSince``). Of two from the
    /// same instant, the one saved last comes first: ``save(_:)`` appends.
    /// - Returns: The records.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is corrupt.
    public func records() throws(SwaggerError) -> [SessionRecord] {
        try file.elements().enumerated()
            .sorted { ($0.element.activeSince, $0.offset) > ($1.element.activeSince, $1.offset) }
            .map(\.element)
    }

    /// The session to use on `server`: the one for `email` when given, else the active one there.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account to pick, or `nil` for the active one (the most recently active).
    /// - Returns: The record, or `nil` when there is none.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is corrupt.
    public func record(server: String, email: String? = nil) throws(SwaggerError) -> SessionRecord? {
        try records().session(on: server, email: email)
    }

    /// The accounts whose records cannot be read (`nil` for one that does not say whose it is). They affect
    /// only their own session, and ``remove(_:)`` removes them.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is not a session list.
    public func damaged() throws(SwaggerError) -> [Account?] {
        try file.damaged()
    }

    /// Adds `record`, replacing any record for the same account.
    /// - Parameter record: The session to save.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is corrupt.
    public func save(_ record: SessionRecord) throws(SwaggerError) {
        try file.replace(record)
    }

    /// Removes the record for `account`.
    /// - Parameter account: The session to forget.
    /// - Returns: `true` when a record was removed.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is corrupt.
    @discardableResult
    public func remove(_ account: Account) throws(SwaggerError) -> Bool {
        try file.remove(account)
    }
}

extension SessionRecord: AccountKeyed {}

extension [SessionRecord] {
    /// Of records sorted as ``SessionIndex/records()`` sorts them: the one for `email` on `server` when given,
    /// else the active one there.
    func session(on server: String, email: String?) -> SessionRecord? {
        first { $0.server == server && (email == nil || $0.email == email) }
    }
}
