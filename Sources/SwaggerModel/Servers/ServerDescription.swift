import FoundationEssentials

/// How to talk to a server, step by step: for the login, the token's use, the refresh, the revocation and the
/// profile, everything the requests carry and where the answers keep what is wanted.
///
/// Every server has one, kept in the server registry (``ServerEntry``) whatever becomes of its sessions. It is
/// data: a server family (`simplejwt`, `oauth2`, …) is a preset description (``ServerPresets``), a server that
/// publishes its OpenAPI document or OAuth metadata is described by what they say, and a person can write one
/// (``ServerDescription/init(json:under:)``, the same language as `--server-file` and `server export`). Every
/// server's requests are sent as its description says; none is taken for any family without evidence.
package struct ServerDescription: Sendable, Hashable {
    /// The preset the description started from, such as `simplejwt`; `nil` for one that documents or a person
    /// wrote whole.
    package var preset: String?
    package var login: LoginStep
    /// How the access token goes with a request.
    package var token: TokenUse = .bearer
    /// `nil` when the server has no way to renew a session.
    package var refresh: RefreshStep?
    /// `nil` when the server has no way to end a session: logout is then local only.
    package var revocation: RevocationStep?
    package var profile: ProfileStep
    /// The OAuth 2 client identifier, when the server wants one.
    package var clientID: String?
    /// The OAuth 2 scope to ask for, when any.
    package var scope: String?
    /// Whether a client secret is kept with the tokens (RFC 6749 §2.3.1).
    package var usesClientSecret = false
    /// How the client proves itself to the token endpoint; `nil` for HTTP Basic with a secret, and the `client_id`
    /// field without one.
    package var clientAuthentication: ClientAuthentication?
    /// Where a client that proves itself with its certificate sends its token requests and revocations instead
    /// (RFC 8705 §5's `mtls_endpoint_aliases`): the addresses at which the server asks for the certificate.
    package var mtls = MTLSAliases()
    /// The OAuth 2 authorization endpoint (RFC 6749 §3.1), for `login --web`.
    package var authorizationURL: URL?
    /// The OAuth 2 device authorization endpoint (RFC 8628), for `login --device`.
    package var deviceAuthorizationURL: URL?
    /// The OAuth 2 grant types the server offers (`grant_types_supported`); `nil` when it does not say.
    package var grantTypes: [String]?
    /// How the last login was made, which a later login does again unless told otherwise.
    package var signIn: SignIn = .password
    /// The server's OpenAPI document, when one describes it.
    package var document: URL?
    /// How its lists name a page, where its document says.
    package var paging: Paging?
    /// The origins other than the server's own that the person allowed its secrets to go to (`--allow-origin`):
    /// a token endpoint on an identity provider's host, say. Only the person adds one; a document never does.
    package var allowedOrigins: [ServerURL] = []

    package init(
        login: LoginStep, token: TokenUse = .bearer, refresh: RefreshStep? = nil, revocation: RevocationStep? = nil,
        profile: ProfileStep
    ) {
        self.login = login
        self.token = token
        self.refresh = refresh
        self.revocation = revocation
        self.profile = profile
    }

    /// Every URL the session's secrets go to, for the plain-HTTP rule.
    package var endpoints: [URL] { steps.map(\.url) }

    /// Every URL the session's secrets go to, or where the person signs in, with the step's name: the login's,
    /// the refresh's, the revocation's, the profile's, the device authorization's and the browser's sign-in page.
    package var steps: [(step: String, url: URL)] {
        let named: [(String, URL?)] = [
            ("login", login.url), ("refresh", refresh?.url), ("revocation", revocation?.url),
            ("profile", profile.url), ("device authorization", deviceAuthorizationURL),
            ("login with a certificate", mtls.token), ("revocation with a certificate", mtls.revocation),
        ]
        return named.compactMap { step, url in url.map { (step, $0) } }
    }

    /// Whether the revocation names the session by its refresh token (a JSON member), so that without one there is
    /// nothing to end.
    package var revocationNeedsRefreshToken: Bool {
        if case .json? = revocation?.shape { true } else { false }
    }

    /// Whether the server says it offers the password grant; `true` when it does not say.
    package var offersPasswordGrant: Bool { grantTypes?.contains("password") ?? true }

    /// The sign-ins in a browser that the server says it offers, and names the endpoints of: the authorization code
    /// grant (`web`), the device authorization grant (`device`). None when it does not say.
    package var browserSignIns: [SignIn] {
        guard let grantTypes else { return [] }
        var offered: [SignIn] = []
        if grantTypes.contains("authorization_code"), authorizationURL != nil { offered.append(.web) }
        if grantTypes.contains("urn:ietf:params:oauth:grant-type:device_code"), deviceAuthorizationURL != nil {
            offered.append(.device)
        }
        return offered
    }
}

/// The endpoints a server asks a client's certificate at (RFC 8705 §5), where they differ from the others.
package struct MTLSAliases: Sendable, Hashable {
    package var token: URL?
    package var revocation: URL?

    package init(token: URL? = nil, revocation: URL? = nil) {
        self.token = token
        self.revocation = revocation
    }
}

/// How a server's lists are paged, as its document declares their parameters.
package struct Paging: Sendable, Hashable {
    /// The query parameter that names a page: `page`, Litestar's `current_page`.
    package var page: String?
    /// The query parameter that takes the cursor a page gives for the next one: `cursor`, Matrix's `since`.
    package var cursor: String?

    package init(page: String? = nil, cursor: String? = nil) {
        self.page = page
        self.cursor = cursor
    }

    /// In the description language: `{"page": …, "cursor": …}`, each where named.
    package var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let page { members["page"] = .string(page) }
        if let cursor { members["cursor"] = .string(cursor) }
        return .object(members)
    }
}

/// How a login's body is written.
package enum BodyEncoding: String, Sendable, Hashable, Codable {
    case json
    /// `application/x-www-form-urlencoded`, as HTML forms and OAuth 2's token endpoint take it.
    case form
}

/// How a login signs in.
package enum LoginShape: String, Sendable, Hashable, Codable {
    /// The account and the password are posted, and the answer holds the tokens.
    case post
    /// There is no login request: every request carries the account and the password by HTTP Basic (RFC 7617),
    /// so they are what is kept, in place of a token, and the profile request is what checks them.
    case basic
}

/// The login: where the account and the password go, what goes with them, and where the answer keeps the tokens.
/// A member's name with dots is a path into nested objects (`identifier.user`).
package struct LoginStep: Sendable, Hashable {
    /// Where the login is posted; for ``LoginShape/basic``, the profile's address, which checks the credentials.
    package var url: URL
    package var shape: LoginShape = .post
    package var encoding: BodyEncoding = .json
    /// The member the account goes in: a user name, or an e-mail where the login has no member of its own for one.
    package var account = "username"
    /// The member an e-mail goes in (an account named with `-e`) where the login has one beside ``account``.
    package var email: String?
    package var password = "password"
    /// Other members, sent with these values: OAuth 2's `grant_type`, Flask-AppBuilder's `provider`.
    package var members: [String: JSONValue] = [:]
    /// The member that carries the session's app id, for the API that wants one.
    package var appID: String?
    /// Where the answer keeps the tokens and the access token's lifetime.
    package var answer: TokenFields = .oauth2
    /// The statuses the server's document declares for refused credentials, beside 401 and 403.
    package var refusals: [Int] = []

    package init(url: URL) {
        self.url = url
    }

    /// The member that `name` goes in: the e-mail's, for an account named by an e-mail where there is one.
    package func member(for name: AccountName) -> String {
        name.isEmail ? email ?? account : account
    }

    /// Whether the body is RFC 6749's password grant.
    package var isPasswordGrant: Bool {
        encoding == .form && members["grant_type"] == .string("password")
    }
}

/// An account's name as the person gave it: an e-mail (`-e`) or a user name (`-u`).
package struct AccountName: Sendable, Hashable {
    package var value: String
    package var isEmail: Bool

    package init(_ value: String, isEmail: Bool) {
        self.value = value
        self.isEmail = isEmail
    }
}

/// Where the access token goes: a header, and the scheme before the token in it, if any.
package struct TokenUse: Sendable, Hashable {
    package var header: String
    package var scheme: String?

    package init(header: String, scheme: String?) {
        self.header = header
        self.scheme = scheme
    }

    /// `Authorization: Bearer <token>` (RFC 6750).
    package static let bearer = TokenUse(header: "Authorization", scheme: "Bearer")

    /// The header's value for `token`.
    package func value(_ token: String) -> String {
        scheme.map { "\($0) \(token)" } ?? token
    }

    /// `Authorization: Token`, or a header's name alone (`X-API-Key`), as the description language writes it.
    package var text: String { scheme.map { "\(header): \($0)" } ?? header }

    /// Reads ``text``; `nil` for a header name that is not a token of RFC 9110 or a scheme with a space.
    package init?(text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        guard let name = parts.first, Self.isToken(name) else { return nil }
        header = name
        scheme = nil
        if parts.count == 2 {
            guard Self.isToken(parts[1]) else { return nil }
            scheme = parts[1]
        }
    }

    /// RFC 9110's `token`: the characters a header name or an authentication scheme may have.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.utf8.allSatisfy { byte in
                PercentEncoding.isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
            }
    }
}

/// The refresh: where the refresh token goes, and how.
package struct RefreshStep: Sendable, Hashable {
    package var url: URL
    package var shape: RefreshShape
    /// How the refresh token goes when it is the bearer: a scheme of its own; `nil` for the access token's.
    package var token: TokenUse?
    /// Where the answer keeps the tokens; `nil` for where the login's keeps them.
    package var answer: TokenFields?
    /// The member that carries the session's app id.
    package var appID: String?

    package init(url: URL, shape: RefreshShape) {
        self.url = url
        self.shape = shape
    }
}

/// The revocation: where a session is ended, and how.
package struct RevocationStep: Sendable, Hashable {
    package var url: URL
    package var shape: RevocationShape
    /// Statuses beside 2xx that say the session was ended, as a document gives them (allauth's logout answers
    /// 401: the session is no longer authenticated).
    package var revoked: [Int] = []
    /// Statuses that say the session was gone already, which ends the logout as well (410 by default).
    package var gone: [Int] = [410]
    /// How an RFC 7009 revocation authenticates the client; `nil` for HTTP Basic with a client secret, and the
    /// `client_id` field without.
    package var clientAuthentication: ClientAuthentication?

    package init(url: URL, shape: RevocationShape, clientAuthentication: ClientAuthentication? = nil) {
        self.url = url
        self.shape = shape
        self.clientAuthentication = clientAuthentication
    }

    /// Whether the revocation carries the access token: as the bearer, or (RFC 7009) as what it revokes.
    package var sendsAccessToken: Bool {
        switch shape {
        case .json, .bearer: true
        case .rfc7009: clientAuthentication == .bearer
        }
    }
}

/// The profile: where the current user is read, and where in the answer.
package struct ProfileStep: Sendable, Hashable {
    package var url: URL
    /// The member the answer keeps the profile in, as a dotted path; `nil` for the whole answer, or the object of
    /// its only member `data`.
    package var unwrap: String?
    /// The fields shown first, in this order, with labels for people; the others follow, sorted by name.
    package var labels: [ProfileLabel] = []

    package init(url: URL, unwrap: String? = nil) {
        self.url = url
        self.unwrap = unwrap
    }
}

/// A profile field that is shown first, under a label.
package struct ProfileLabel: Sendable, Hashable {
    package var field: String
    package var label: String
    /// A value that means "none", shown as unknown: the original API's image id of -1.
    package var none: JSONValue?

    package init(_ field: String, _ label: String, none: JSONValue? = nil) {
        self.field = field
        self.label = label
        self.none = none
    }
}

/// How a person signs in: with the password, or in a browser.
package enum SignIn: String, Sendable, Hashable, Codable {
    case password
    /// `--web`: the authorization code grant with PKCE.
    case web
    /// `--device`: the device authorization grant.
    case device
    /// `--client-credentials`: the client signs in as itself (RFC 6749 §4.4), and renews by asking again.
    case client = "client-credentials"
}

/// How a refresh sends the refresh token.
package enum RefreshShape: Sendable, Hashable {
    /// A JSON object with the token under this member.
    case json(field: String)
    /// RFC 6749 §6's form: `grant_type=refresh_token` and `refresh_token`.
    case grant
    /// As the bearer of an empty `POST`, as flask-jwt-extended and Flask-AppBuilder take it.
    case bearer
}

/// How a logout ends the session on the server.
package enum RevocationShape: Sendable, Hashable {
    /// RFC 7009: each token in a form with `token_type_hint`, the refresh token first.
    case rfc7009
    /// A JSON object with the refresh token under this member, with the access token as the bearer.
    case json(field: String)
    /// A request with this method and no body for each token, as the bearer: fastapi-users' `POST`,
    /// flask-jwt-extended's `DELETE`, dj-rest-auth's `POST` with its token.
    case bearer(method: String)
}

/// How a client proves itself to the token endpoint or an RFC 7009 revocation, as
/// `token_endpoint_auth_methods_supported` and `revocation_endpoint_auth_methods_supported` name the ways (RFC 8414
/// §2).
package enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
    /// A public client: its `client_id` in the form.
    case none
    /// HTTP Basic with the client id and secret.
    case basic = "client_secret_basic"
    /// The client id and secret in the form.
    case post = "client_secret_post"
    /// The access token as the bearer, as Glewlwyd takes it from a public client.
    case bearer
    /// An assertion signed with the client's private key (RFC 7523 §2.2).
    case privateKeyJWT = "private_key_jwt"
    /// The client's certificate, presented in TLS (RFC 8705 §2.1).
    case tlsClientAuth = "tls_client_auth"
}

/// The names of the members of a login or refresh answer that hold the tokens. A name with dots is a path
/// into nested objects (`data.token`).
package struct TokenFields: Sendable, Hashable, Codable {
    package var accessToken: String
    package var refreshToken: String
    /// The member with the access token's lifetime, in ``unit``s.
    package var expiresIn: String
    /// The unit of the lifetime: seconds (RFC 6749's `expires_in`), or milliseconds (Matrix's `expires_in_ms`).
    package var unit: LifetimeUnit = .seconds
    /// The member that names the user who signed in, where the answer has one (the original API's `username`).
    package var username: String?

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
}

/// The unit of a token's lifetime, as the description language writes it: `s` or `ms`.
package enum LifetimeUnit: String, Sendable, Hashable, Codable {
    case seconds = "s"
    case milliseconds = "ms"

    /// A lifetime of `count` of this unit, rounded down to whole seconds; `nil` for none that is positive.
    package func duration(_ count: Int64) -> Duration? {
        let seconds = self == .milliseconds ? count / 1000 : count
        return seconds > 0 ? .seconds(seconds) : nil
    }
}

/// The shapes as the description language writes them: `json:NAME`, `grant`, `bearer`, `rfc7009`, `bearer:METHOD`.
/// A text that is none of these is refused, never guessed at.
private func shapeParts(_ text: String) -> (name: String, argument: String?) {
    guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
    let argument = String(text[text.index(after: colon)...])
    return (String(text[..<colon]), argument.isEmpty ? nil : argument)
}

extension RefreshShape {
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

extension RevocationShape {
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
