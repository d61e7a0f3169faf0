import FoundationEssentials

/// The kinds of server swaggerctl logs in to.
public enum ServerKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The account API of `openapi.yaml`: `POST /User/AdminLogin` with an app id, `POST /User/RefreshToken`,
    /// `POST /User/Logout` and `GET /User/User`.
    case original
    /// ASP.NET Core Identity's bearer endpoints (`MapIdentityApi`): `POST /login`, `POST /refresh` and
    /// `GET /manage/info`, with opaque tokens whose lifetime is `expiresIn`.
    case identity
    /// An OAuth 2.0 authorization server: the password grant (RFC 6749 §4.3), refresh (§6), revocation (RFC
    /// 7009), and the OpenID Connect userinfo endpoint, or another, for the profile.
    case oauth2
}

/// How to talk to a server that is not the original API: where to log in, refresh, revoke and fetch the
/// profile, as absolute URLs, and what the token fields are called. It is decided at login, from the kind's
/// defaults, what discovery found and the flags, and saved with the session, so later commands need none.
public struct ServerDialect: Sendable, Hashable, Codable {
    /// The kind; never ``ServerKind/original``, whose requests are fixed by the API document.
    public var kind: ServerKind
    /// Where the credentials go: Identity's `/login`, or OAuth 2's token endpoint.
    public var loginURL: String
    /// Where the refresh token goes; `nil` when the server has no way to refresh.
    public var refreshURL: String?
    /// Where a session is revoked; `nil` when the server has no way to revoke, and logout is local only.
    public var revocationURL: String?
    /// Where the profile is read with the access token.
    public var profileURL: String
    /// The OAuth 2 client identifier, when the server wants one.
    public var clientID: String?
    /// The OAuth 2 scope to ask for, when any.
    public var scope: String?
    /// The names of the token fields in the login and refresh answers.
    public var fields: TokenFields
    /// Whether a client secret is kept with the tokens, for HTTP Basic at the token and revocation endpoints
    /// (RFC 6749 §2.3.1).
    public var usesClientSecret: Bool
    /// Where the endpoints were found: a discovery document's URL, or `nil` for the kind's defaults and flags.
    public var discoveredAt: String?

    /// Creates a dialect.
    /// - Parameters:
    ///   - kind: The kind.
    ///   - loginURL: Where the credentials go.
    ///   - refreshURL: Where the refresh token goes.
    ///   - revocationURL: Where a session is revoked.
    ///   - profileURL: Where the profile is read.
    ///   - clientID: The OAuth 2 client identifier.
    ///   - scope: The OAuth 2 scope.
    ///   - fields: The names of the token fields.
    ///   - usesClientSecret: Whether a client secret is kept with the tokens.
    ///   - discoveredAt: Where the endpoints were found.
    public init(
        kind: ServerKind, loginURL: String, refreshURL: String?, revocationURL: String?, profileURL: String,
        clientID: String? = nil, scope: String? = nil, fields: TokenFields, usesClientSecret: Bool = false,
        discoveredAt: String? = nil
    ) {
        self.kind = kind
        self.loginURL = loginURL
        self.refreshURL = refreshURL
        self.revocationURL = revocationURL
        self.profileURL = profileURL
        self.clientID = clientID
        self.scope = scope
        self.fields = fields
        self.usesClientSecret = usesClientSecret
        self.discoveredAt = discoveredAt
    }

    /// Every URL the session's secrets go to, for the plain-HTTP rule.
    public var urls: [String] { [loginURL, refreshURL, revocationURL, profileURL].compactMap { $0 } }
}

/// The names of the members of a login or refresh answer that hold the tokens. A name with dots is a path
/// into nested objects (`data.token`).
public struct TokenFields: Sendable, Hashable, Codable {
    /// The access token's member.
    public var accessToken: String
    /// The refresh token's member.
    public var refreshToken: String
    /// The member with the access token's lifetime in seconds.
    public var expiresIn: String

    /// Creates field names.
    /// - Parameters:
    ///   - accessToken: The access token's member.
    ///   - refreshToken: The refresh token's member.
    ///   - expiresIn: The lifetime's member.
    public init(accessToken: String, refreshToken: String, expiresIn: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }

    /// ASP.NET Core Identity's `AccessTokenResponse`, which the original API shares.
    public static let camelCase = TokenFields(
        accessToken: "accessToken", refreshToken: "refreshToken", expiresIn: "expiresIn")
    /// RFC 6749 §5.1.
    public static let oauth2 = TokenFields(
        accessToken: "access_token", refreshToken: "refresh_token", expiresIn: "expires_in")
}

/// What the person set on the command line for a server's dialect. Every member is optional; what is not set
/// comes from the saved session, discovery, or the kind's defaults.
public struct DialectFlags: Sendable, Hashable {
    /// `--kind`.
    public var kind: ServerKind?
    /// `--login-path`: a path under the server's URL, or an absolute URL.
    public var loginPath: String?
    /// `--refresh-path`.
    public var refreshPath: String?
    /// `--revoke-path`.
    public var revokePath: String?
    /// `--profile-path`.
    public var profilePath: String?
    /// `--openapi`: the server's OpenAPI document, for discovery.
    public var openAPI: String?
    /// `--client-id`.
    public var clientID: String?
    /// `--scope`.
    public var scope: String?
    /// `--access-token-field`.
    public var accessTokenField: String?
    /// `--refresh-token-field`.
    public var refreshTokenField: String?
    /// `--expires-in-field`.
    public var expiresInField: String?

    /// Creates flags.
    public init(
        kind: ServerKind? = nil, loginPath: String? = nil, refreshPath: String? = nil, revokePath: String? = nil,
        profilePath: String? = nil, openAPI: String? = nil, clientID: String? = nil, scope: String? = nil,
        accessTokenField: String? = nil, refreshTokenField: String? = nil, expiresInField: String? = nil
    ) {
        self.kind = kind
        self.loginPath = loginPath
        self.refreshPath = refreshPath
        self.revokePath = revokePath
        self.profilePath = profilePath
        self.openAPI = openAPI
        self.clientID = clientID
        self.scope = scope
        self.accessTokenField = accessTokenField
        self.refreshTokenField = refreshTokenField
        self.expiresInField = expiresInField
    }

    /// The flags that describe a dialect, by name, for the message that refuses them with the original kind.
    var dialectFlagsGiven: [String] {
        [
            ("--login-path", loginPath), ("--refresh-path", refreshPath), ("--revoke-path", revokePath),
            ("--profile-path", profilePath), ("--openapi", openAPI), ("--client-id", clientID), ("--scope", scope),
            ("--access-token-field", accessTokenField), ("--refresh-token-field", refreshTokenField),
            ("--expires-in-field", expiresInField),
        ].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// Whether any flag beyond `--kind` is set.
    public var isEmpty: Bool { dialectFlagsGiven.isEmpty }
}
