import FoundationEssentials

/// The kinds of server swaggerctl logs in to.
package enum ServerKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The account API of `openapi.yaml`: `POST /User/AdminLogin` with an app id, `POST /User/RefreshToken`,
    /// `POST /User/Logout` and `GET /User/User`.
    case original
    /// ASP.NET Core Identity's bearer endpoints (`MapIdentityApi`): `POST /login`, `POST /refresh` and
    /// `GET /manage/info`, with opaque tokens whose lifetime is `expiresIn`.
    case identity
    /// An OAuth 2.0 authorization server: the password grant (RFC 6749 §4.3), refresh (§6), revocation (RFC
    /// 7009), and the OpenID Connect userinfo endpoint, or another, for the profile.
    case oauth2
    /// Django REST framework with djangorestframework-simplejwt, as its documentation sets it up: `POST token/`
    /// with `{username, password}`, `POST token/refresh/` with `{refresh}`, and `POST token/blacklist/` with
    /// `{refresh}`; the answers' members are `access` and `refresh`. It has no profile endpoint of its own.
    case simplejwt
    /// flask-jwt-extended, as its documentation's examples set it up: `POST /login` with `{username, password}`,
    /// `POST /refresh` with the refresh token as the bearer, and `DELETE /logout` with each token as the bearer;
    /// the answers' members are `access_token` and `refresh_token`. It has no profile endpoint of its own.
    case flaskJWTExtended = "flask-jwt-extended"
    /// fastapi-users with its bearer transport, mounted as its documentation mounts it: `POST /auth/jwt/login` as
    /// the password grant's form, whose `username` is the e-mail, `POST /auth/jwt/logout` with the bearer, and
    /// `GET /users/me`. It has no refresh.
    case fastapiUsers = "fastapi-users"
    /// A server described by the flags or a `--server-file` alone: its login and profile addresses, and how each
    /// request is shaped (by default JSON members, and OAuth 2's names for the answer's tokens).
    case custom

    /// The names of the token members in this kind's answers.
    package var fields: TokenFields {
        switch self {
        case .original, .identity: .camelCase
        case .oauth2, .custom, .flaskJWTExtended, .fastapiUsers: .oauth2
        case .simplejwt: .simplejwt
        }
    }

    /// The paths a kind's server software puts its endpoints at, under the URL it is mounted at; `nil` for a
    /// kind whose endpoints are fixed by the API document (original) or found, or given, at login.
    package var routes: (login: String, refresh: String?, revocation: String?, profile: String?)? {
        switch self {
        case .original, .oauth2, .custom: nil
        case .identity: ("/login", "/refresh", nil, "/manage/info")
        case .simplejwt: ("/token/", "/token/refresh/", "/token/blacklist/", nil)
        case .flaskJWTExtended: ("/login", "/refresh", "/logout", nil)
        case .fastapiUsers: ("/auth/jwt/login", nil, "/auth/jwt/logout", "/users/me")
        }
    }

    /// The server software's name, for messages.
    package var title: String {
        switch self {
        case .original: "the original API"
        case .identity: "ASP.NET Core Identity"
        case .oauth2: "an OAuth 2 server"
        case .custom: "a custom server"
        default: rawValue
        }
    }

    /// How this kind's requests are shaped, until a flag or a saved description says otherwise.
    package var shapes: (login: LoginShape, refresh: RefreshShape, revocation: RevocationShape) {
        switch self {
        case .original, .identity:
            (.json(userField: "email"), .json(field: "refreshToken"), .json(field: "refreshToken"))
        case .custom: (.json(userField: "username"), .json(field: "refresh_token"), .json(field: "refresh_token"))
        case .oauth2: (.passwordGrant, .grant, .rfc7009)
        case .simplejwt: (.json(userField: "username"), .json(field: "refresh"), .json(field: "refresh"))
        case .flaskJWTExtended: (.json(userField: "username"), .bearer, .bearer(method: "DELETE"))
        // Its login form is FastAPI's OAuth2PasswordRequestForm. It has no refresh; the shape is the custom kind's,
        // for a --refresh-path that adds one.
        case .fastapiUsers: (.passwordGrant, .json(field: "refresh_token"), .bearer(method: "POST"))
        }
    }
}

/// How a person signs in: with the password, which the login shape carries, or in a browser.
package enum SignIn: String, Sendable, Hashable, Codable {
    case password
    /// `--web`: the authorization code grant with PKCE.
    case web
    /// `--device`: the device authorization grant.
    case device
}

/// How a login sends the credentials.
package enum LoginShape: Sendable, Hashable {
    /// A JSON object of the user, under this member, and `password`.
    case json(userField: String)
    /// The same members as an HTML form (`application/x-www-form-urlencoded`).
    case form(userField: String)
    /// RFC 6749 §4.3's form: `grant_type=password`, `username`, `password`, and the client's fields.
    case passwordGrant
}

/// How a refresh sends the refresh token.
package enum RefreshShape: Sendable, Hashable {
    /// A JSON object with the token under this member.
    case json(field: String)
    /// RFC 6749 §6's form: `grant_type=refresh_token` and `refresh_token`.
    case grant
    /// As the bearer token of an empty `POST`, as flask-jwt-extended takes it.
    case bearer
}

/// How a logout ends the session on the server.
package enum RevocationShape: Sendable, Hashable {
    /// RFC 7009: each token in a form with `token_type_hint`, the refresh token first.
    case rfc7009
    /// A JSON object with the refresh token under this member, with the access token as the bearer.
    case json(field: String)
    /// A request with this method and no body for each token, as the bearer: fastapi-users' `POST`,
    /// flask-jwt-extended's `DELETE`.
    case bearer(method: String)
}

/// The shapes as sessions.json, a `--server-file` and the flags write them: `json:NAME`, `form:NAME`, `password-grant`,
/// `grant`, `bearer`, `rfc7009`, `bearer:METHOD`. A text that is none of these is refused, never guessed at.
private func shapeParts(_ text: String) -> (name: String, argument: String?) {
    guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
    let argument = String(text[text.index(after: colon)...])
    return (String(text[..<colon]), argument.isEmpty ? nil : argument)
}

/// A shape written as text.
package protocol ShapeText: Codable, Sendable, Hashable {
    init?(text: String)
    var text: String { get }
}

extension ShapeText {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let shape = Self(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a request shape swaggerctl knows"))
        }
        self = shape
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension LoginShape: ShapeText {
    package init?(text: String) {
        switch shapeParts(text) {
        case ("password-grant", nil): self = .passwordGrant
        case ("json", let field?): self = .json(userField: field)
        case ("form", let field?): self = .form(userField: field)
        default: return nil
        }
    }

    package var text: String {
        switch self {
        case .json(let field): "json:" + field
        case .form(let field): "form:" + field
        case .passwordGrant: "password-grant"
        }
    }
}

extension RefreshShape: ShapeText {
    package init?(text: String) {
        switch shapeParts(text) {
        case ("grant", nil): self = .grant
        case ("bearer", nil): self = .bearer
        case ("json", let field?): self = .json(field: field)
        default: return nil
        }
    }

    package var text: String {
        switch self {
        case .json(let field): "json:" + field
        case .grant: "grant"
        case .bearer: "bearer"
        }
    }
}

extension RevocationShape: ShapeText {
    package init?(text: String) {
        switch shapeParts(text) {
        case ("rfc7009", nil): self = .rfc7009
        case ("json", let field?): self = .json(field: field)
        case ("bearer", let method?) where ["POST", "DELETE"].contains(method): self = .bearer(method: method)
        default: return nil
        }
    }

    package var text: String {
        switch self {
        case .rfc7009: "rfc7009"
        case .json(let field): "json:" + field
        case .bearer(let method): "bearer:" + method
        }
    }
}

/// How to talk to a server: its kind, where to log in, refresh, revoke and read the profile, and what the token
/// members are called.
///
/// Every session has one. The original kind's is fixed by the API document; another kind's is decided at login,
/// from its defaults, what discovery found and the flags, and saved with the session, so later commands need
/// none.
package struct ServerDescription: Sendable, Hashable {
    package var kind: ServerKind
    /// Where the credentials go: the original API's `/User/AdminLogin`, Identity's `/login`, or OAuth 2's token
    /// endpoint.
    package var loginURL: URL
    /// Where the refresh token goes; `nil` when the server has no way to refresh.
    package var refreshURL: URL?
    /// Where a session is revoked; `nil` when the server has no way to revoke, and logout is local only.
    package var revocationURL: URL?
    package var profileURL: URL
    /// The OAuth 2 client identifier, when the server wants one.
    package var clientID: String?
    /// The OAuth 2 scope to ask for, when any.
    package var scope: String?
    /// The names of the token members in the login and refresh answers.
    package var fields: TokenFields
    package var login: LoginShape
    package var refresh: RefreshShape
    package var revocation: RevocationShape
    /// Whether a client secret is kept with the tokens, for HTTP Basic at the token and revocation endpoints
    /// (RFC 6749 §2.3.1).
    package var usesClientSecret: Bool
    /// The discovery documents the endpoints were found in; empty for the kind's defaults and flags.
    package var discoveredAt: [URL]
    /// The OAuth 2 device authorization endpoint (RFC 8628), for `login --device`.
    package var deviceAuthorizationURL: URL?
    /// The OAuth 2 authorization endpoint (RFC 6749 §3.1), for `login --web`.
    package var authorizationURL: URL?
    /// How the session's login was made, which a later login does again unless told otherwise.
    package var signIn: SignIn = .password

    package init(
        kind: ServerKind, loginURL: URL, refreshURL: URL?, revocationURL: URL?, profileURL: URL,
        clientID: String? = nil, scope: String? = nil, fields: TokenFields, usesClientSecret: Bool = false,
        discoveredAt: [URL] = []
    ) {
        self.kind = kind
        (login, refresh, revocation) = kind.shapes
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

    /// The original API's, under `server`, as `openapi.yaml` gives it.
    package static func original(_ server: ServerURL) -> ServerDescription {
        let url = server.url
        return ServerDescription(
            kind: .original, loginURL: url.appending(path: "User/AdminLogin"),
            refreshURL: url.appending(path: "User/RefreshToken"), revocationURL: url.appending(path: "User/Logout"),
            profileURL: url.appending(path: "User/User"), fields: .camelCase)
    }

    /// Every URL the session's secrets go to, for the plain-HTTP rule.
    package var endpoints: [URL] { [loginURL, refreshURL, revocationURL, profileURL].compactMap { $0 } }
}

extension ServerDescription: Codable {
    // As sessions.json has always kept it: URLs as text, and the discovery documents joined by spaces.
    private enum CodingKeys: String, CodingKey {
        case kind, loginURL, refreshURL, revocationURL, profileURL, clientID, scope, fields, usesClientSecret
        case discoveredAt, login, refresh, revocation, deviceAuthorizationURL, authorizationURL, signIn
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func url(_ key: CodingKeys) throws -> URL? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let url = URL(string: text), url.host != nil else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a URL")
            }
            return url
        }
        func required(_ key: CodingKeys) throws -> URL {
            guard let found = try url(key) else {
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: container.codingPath, debugDescription: "missing"))
            }
            return found
        }
        kind = try container.decode(ServerKind.self, forKey: .kind)
        loginURL = try required(.loginURL)
        refreshURL = try url(.refreshURL)
        revocationURL = try url(.revocationURL)
        deviceAuthorizationURL = try url(.deviceAuthorizationURL)
        authorizationURL = try url(.authorizationURL)
        signIn = try container.decodeIfPresent(SignIn.self, forKey: .signIn) ?? .password
        profileURL = try required(.profileURL)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        fields = try container.decode(TokenFields.self, forKey: .fields)
        usesClientSecret = try container.decodeIfPresent(Bool.self, forKey: .usesClientSecret) ?? false
        let found = try container.decodeIfPresent(String.self, forKey: .discoveredAt) ?? ""
        discoveredAt = found.split(separator: " ").compactMap { URL(string: String($0)) }
        // Sessions saved before the shapes were written down have their kind's.
        login = try container.decodeIfPresent(LoginShape.self, forKey: .login) ?? kind.shapes.login
        refresh = try container.decodeIfPresent(RefreshShape.self, forKey: .refresh) ?? kind.shapes.refresh
        revocation = try container.decodeIfPresent(RevocationShape.self, forKey: .revocation) ?? kind.shapes.revocation
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(loginURL.absoluteString, forKey: .loginURL)
        try container.encodeIfPresent(refreshURL?.absoluteString, forKey: .refreshURL)
        try container.encodeIfPresent(revocationURL?.absoluteString, forKey: .revocationURL)
        try container.encodeIfPresent(deviceAuthorizationURL?.absoluteString, forKey: .deviceAuthorizationURL)
        try container.encodeIfPresent(authorizationURL?.absoluteString, forKey: .authorizationURL)
        if signIn != .password { try container.encode(signIn, forKey: .signIn) }
        try container.encode(profileURL.absoluteString, forKey: .profileURL)
        try container.encodeIfPresent(clientID, forKey: .clientID)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encode(fields, forKey: .fields)
        try container.encode(usesClientSecret, forKey: .usesClientSecret)
        if !discoveredAt.isEmpty {
            try container.encode(discoveredAt.map(\.absoluteString).joined(separator: " "), forKey: .discoveredAt)
        }
        try container.encode(login, forKey: .login)
        try container.encode(refresh, forKey: .refresh)
        try container.encode(revocation, forKey: .revocation)
    }
}

/// The names of the members of a login or refresh answer that hold the tokens. A name with dots is a path
/// into nested objects (`data.token`).
package struct TokenFields: Sendable, Hashable, Codable {
    package var accessToken: String
    package var refreshToken: String
    /// The member with the access token's lifetime in seconds.
    package var expiresIn: String

    package init(accessToken: String, refreshToken: String, expiresIn: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }

    /// ASP.NET Core Identity's `AccessTokenResponse`, which the original API shares.
    package static let camelCase = TokenFields(
        accessToken: "accessToken", refreshToken: "refreshToken", expiresIn: "expiresIn")
    /// RFC 6749 §5.1.
    package static let oauth2 = TokenFields(
        accessToken: "access_token", refreshToken: "refresh_token", expiresIn: "expires_in")
    /// djangorestframework-simplejwt's `TokenObtainPairSerializer`; its tokens are JWTs, whose `exp` says when.
    package static let simplejwt = TokenFields(accessToken: "access", refreshToken: "refresh", expiresIn: "expires_in")
}
