import FoundationEssentials

/// What swaggerctl knows about a session apart from its tokens: the element of the session list.
package struct SessionRecord: Sendable, Hashable {
    package var account: Account
    /// The app id the login sent; later logins to the server reuse it.
    package var appID: String
    /// The user name the server returned at login, if any.
    package var username: String?
    package var backend: BackendKind
    /// When the session was made: its login.
    package var savedAt: Date
    /// When the access token expires: its JWT's `exp`, else the login's or refresh's lifetime; `nil` when unknown.
    package var expiresAt: Date?
    package var issuedAt: Date?
    /// Whether a refresh token is stored with the access token; `nil` in records written before refresh
    /// tokens were used, for which only the token store knows.
    package var refreshable: Bool?
    /// Whether the person allowed credentials over plain `http://` to this server at login (`--allow-http`);
    /// `nil` where it was not needed.
    package var allowsPlainHTTP: Bool?
    /// The PEM file of certificate authorities given at login (`--ca-cert` or `SWAGGERCTL_CA_CERT`), as an
    /// absolute path, trusted again for this session when a later command names none; `nil` when none was.
    package var caCertificate: String?
    /// When `swaggerctl switch` chose this account; `nil` if it never did.
    package var selectedAt: Date?
    /// When a logout began removing this session: from then on it is gone, and what is left of it (its tokens, if
    /// the logout was stopped before they went) is removed by the next logout on its server or login of its account.
    package var removingSince: Date?
    /// How the session was made, where it matters later: ``SignIn/client`` for a client that signed in as itself,
    /// which renews by asking again and has no person's profile; `nil` for a person's session.
    package var signIn: SignIn?
    /// The JWK thumbprint (RFC 7638) of the key the session's tokens are bound to (DPoP, RFC 9449); `nil` for bearer
    /// tokens, which work for whoever holds them.
    package var proofKey: String?
    /// Whether the session's client proves itself with its certificate in TLS (RFC 8705), which every request of the
    /// session presents, since its tokens are bound to it; `nil` for one that does not.
    package var presentsCertificate: Bool?
    /// What the login's answer, or the last refresh's, yielded besides the tokens, for later steps' templates: the
    /// user id in Keystone's profile URL. Never a secret.
    package var outputs: [String: String] = [:]
    /// How to talk to the server: its entry in the server registry, joined to the record when both are read, else
    /// what a record written before the registry kept. `nil` when neither says: nothing describes the server, and the
    /// session cannot be used until something does. It is not written with the record.
    package var serverDescription: ServerDescription? {
        get { joinedDescription ?? legacyDescription }
        set { joinedDescription = newValue }
    }
    private var joinedDescription: ServerDescription?
    /// The description that a record written before the server registry kept with it, until the registry takes
    /// it over.
    package private(set) var legacyDescription: ServerDescription?
    /// That description as the record kept it, written back as it was read.
    private var legacyDialect: JSONValue?

    package init(
        account: Account, appID: String, username: String? = nil, backend: BackendKind, savedAt: Date,
        expiresAt: Date? = nil, issuedAt: Date? = nil, refreshable: Bool? = nil, allowsPlainHTTP: Bool? = nil,
        caCertificate: String? = nil, selectedAt: Date? = nil, serverDescription: ServerDescription? = nil,
        signIn: SignIn? = nil, proofKey: String? = nil
    ) {
        self.account = account
        self.appID = appID
        self.username = username
        self.backend = backend
        self.savedAt = savedAt
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.refreshable = refreshable
        self.allowsPlainHTTP = allowsPlainHTTP
        self.caCertificate = caCertificate
        self.selectedAt = selectedAt
        self.joinedDescription = serverDescription
        self.signIn = signIn
        self.proofKey = proofKey
    }

    package var server: ServerURL { account.server }
    package var name: String { account.name }

    /// When this session last became the one to use: its login, or a later `switch` to it. The latest on a
    /// server is that server's active session, and the latest overall names the default server.
    package var activeSince: Date { max(savedAt, selectedAt ?? savedAt) }

    /// Whether a command that uses the session needs more of the token store than the access token: the key its
    /// tokens are bound to, or the certificate its requests present.
    package var needsKeys: Bool { proofKey != nil || presentsCertificate == true }

    /// Whether the session is a client's own (RFC 6749 §4.4), not a person's.
    package var isClient: Bool { signIn == .client }
}

extension SessionRecord: Codable {
    // The names sessions.json has always used. A record keeps no description: the server registry does. One
    // written before the registry kept it under "dialect", which is read, and written back as it was.
    private enum CodingKeys: String, CodingKey {
        case server, email, appID = "appId", username, backend = "keystore", savedAt, expiresAt, issuedAt
        case refreshable, allowsPlainHTTP, selectedAt, serverDescription = "dialect", caCertificate = "caCert"
        case removingSince, signIn, proofKey = "dpopKey", presentsCertificate, outputs
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let server = try container.decode(ServerURL.self, forKey: .server)
        account = Account(server: server, name: try container.decode(String.self, forKey: .email))
        appID = try container.decode(String.self, forKey: .appID)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        backend = try container.decode(BackendKind.self, forKey: .backend)
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        issuedAt = try container.decodeIfPresent(Date.self, forKey: .issuedAt)
        refreshable = try container.decodeIfPresent(Bool.self, forKey: .refreshable)
        allowsPlainHTTP = try container.decodeIfPresent(Bool.self, forKey: .allowsPlainHTTP)
        selectedAt = try container.decodeIfPresent(Date.self, forKey: .selectedAt)
        caCertificate = try container.decodeIfPresent(String.self, forKey: .caCertificate)
        removingSince = try container.decodeIfPresent(Date.self, forKey: .removingSince)
        signIn = try container.decodeIfPresent(SignIn.self, forKey: .signIn)
        proofKey = try container.decodeIfPresent(String.self, forKey: .proofKey)
        presentsCertificate = try container.decodeIfPresent(Bool.self, forKey: .presentsCertificate)
        outputs = try container.decodeIfPresent([String: String].self, forKey: .outputs) ?? [:]
        if let legacy = try container.decodeIfPresent(JSONValue.self, forKey: .serverDescription) {
            do throws(ServerDescription.Invalid) {
                legacyDescription = try ServerDescription(legacy: legacy, under: server)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .serverDescription, in: container, debugDescription: error.reason)
            }
            legacyDialect = legacy
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account.server, forKey: .server)
        try container.encode(account.name, forKey: .email)
        try container.encode(appID, forKey: .appID)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encode(backend, forKey: .backend)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(issuedAt, forKey: .issuedAt)
        try container.encodeIfPresent(refreshable, forKey: .refreshable)
        try container.encodeIfPresent(allowsPlainHTTP, forKey: .allowsPlainHTTP)
        try container.encodeIfPresent(selectedAt, forKey: .selectedAt)
        try container.encodeIfPresent(caCertificate, forKey: .caCertificate)
        try container.encodeIfPresent(removingSince, forKey: .removingSince)
        try container.encodeIfPresent(signIn, forKey: .signIn)
        try container.encodeIfPresent(proofKey, forKey: .proofKey)
        try container.encodeIfPresent(presentsCertificate, forKey: .presentsCertificate)
        if !outputs.isEmpty { try container.encode(outputs, forKey: .outputs) }
        try container.encodeIfPresent(legacyDialect, forKey: .serverDescription)
    }
}

/// A stored session: its record and its tokens.
package struct Session: Sendable, Hashable {
    package var record: SessionRecord
    package var credentials: Credentials

    package var account: Account { record.account }

    package init(record: SessionRecord, credentials: Credentials) {
        self.record = record
        self.credentials = credentials
    }
}
