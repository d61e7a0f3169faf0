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
    /// A URL that names an input is here with its placeholders stood in for: its origin is fixed, whatever they are.
    package var steps: [(step: String, url: URL)] {
        var named: [(String, URL?)] = [
            ("login", login.request?.originURL), ("refresh", refresh?.request.originURL),
        ]
        named += (revocation?.requests ?? []).map { ("revocation", $0.template.originURL) }
        named += [
            ("profile", profile.request.originURL), ("device authorization", deviceAuthorizationURL),
            ("login with a certificate", mtls.token), ("revocation with a certificate", mtls.revocation),
        ]
        var seen: Set<String> = []
        return named.compactMap { step, url in
            guard let url, seen.insert("\(step) \(url.absoluteString)").inserted else { return nil }
            return (step, url)
        }
    }

    /// Whether the revocation names the session by its refresh token, so that without one there is nothing to end.
    package var revocationNeedsRefreshToken: Bool { revocation?.needsRefreshToken ?? false }

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

/// How a server's lists are paged, as its document declares their parameters, and how a list says it was cut.
package struct Paging: Sendable, Hashable {
    /// The query parameter that names a page: `page`, Litestar's `current_page`.
    package var page: String?
    /// The query parameter that takes the cursor a page gives for the next one: `cursor`, Matrix's `since`.
    package var cursor: String?
    /// The query parameter that takes how many items to pass over: Django Ninja's and DRF's `offset`.
    package var offset: String?
    /// What a last page says when the server cut the list short and gives no way to the rest, as Keystone's
    /// `"truncated": true` past its list_limit; ``cutByDefault`` unless the description says.
    package var cut: [Criterion]?

    package init(page: String? = nil, cursor: String? = nil, offset: String? = nil, cut: [Criterion]? = nil) {
        self.page = page
        self.cursor = cursor
        self.offset = offset
        self.cut = cut
    }

    /// The sign of a cut list that servers give: a top-level `truncated` that is `true`.
    package static let cutByDefault = [Criterion.truncated]

    /// In the description language: `{"page": …, "cursor": …, "offset": …, "cut": […]}`, each where named.
    package var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let page { members["page"] = .string(page) }
        if let cursor { members["cursor"] = .string(cursor) }
        if let offset { members["offset"] = .string(offset) }
        if let cut { members["cut"] = .array(cut.map(\.json)) }
        return .object(members)
    }
}

/// The login: the request that signs in, what its answer yields (the tokens, their lifetime, who signed in), and
/// which answers refuse the credentials. A login with no request sends nothing: its yields are the inputs' (HTTP
/// Basic on every request), and the profile's request checks them.
package struct LoginStep: Sendable, Hashable {
    package var request: RequestTemplate?
    package var yields: [String: Yield] = .oauth2
    /// Answers that mean the account or the password is wrong (exit 4), besides 401, 403, OAuth 2's
    /// `invalid_grant` and a 400 whose words speak of the credentials.
    package var refused: [Criterion] = []

    package init(request: RequestTemplate?, yields: [String: Yield] = .oauth2, refused: [Criterion] = []) {
        self.request = request
        self.yields = yields
        self.refused = refused
    }

    /// Where the login is sent: the token endpoint, for OAuth 2's grants; `nil` for one that sends nothing, or
    /// whose URL names an input.
    package var url: URL? { request?.fixedURL }

    /// Whether the login sends nothing, and every request carries what it yields: HTTP Basic on every request.
    package var sendsNothing: Bool { request == nil && !yields.isEmpty }

    /// Whether there is no login at all: a server that takes only tokens people bring (`signIn: token`).
    package var isNone: Bool { request == nil && yields.isEmpty }

    /// Whether the request is RFC 6749's password grant.
    package var isPasswordGrant: Bool { request?.formValue("grant_type") == "password" }

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

    /// RFC 7617's user-id and password that `token` is, under the Basic scheme: base64 of the two, a colon between.
    /// `nil` under any other scheme, or for a token that is not such a pair.
    package func basicCredentials(in token: String) -> (user: String, password: String)? {
        // Asked of every request's credential: only a five-letter scheme is lower-cased to be compared.
        guard let scheme, scheme.utf8.count == 5, scheme.lowercased() == "basic",
            let decoded = Data(base64Encoded: token)
        else { return nil }
        let pair = String(decoding: decoded, as: UTF8.self)
        guard let colon = pair.firstIndex(of: ":") else { return nil }
        return (String(pair[..<colon]), String(pair[pair.index(after: colon)...]))
    }

    /// `token`, `exec` and `git-credential`'s warning for a session whose token is a Basic pair.
    package static let basicNotice =
        "this session signs in by HTTP Basic: its token is your account and password, base64-encoded, not a token "
        + "the server issued."

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

    /// Reads the template form, `{"X-Auth-Token": "{access}"}` or `{"Authorization": "Token {access}"}`: one header
    /// whose value is the token, after a scheme if any; `nil` for anything else.
    package init?(template: [String: JSONValue]) {
        guard template.count == 1, let (name, value) = template.first, case .string(let text) = value,
            text.hasSuffix("{access}")
        else { return nil }
        let scheme = text.dropLast("{access}".count).trimmingWhitespace()
        self.init(text: scheme.isEmpty ? name : "\(name): \(scheme)")
    }

    /// RFC 9110's `token`: the characters a header name or an authentication scheme may have.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.utf8.allSatisfy { byte in
                PercentEncoding.isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
            }
    }
}

/// The refresh: the request that spends the refresh token (or renews the access token), what its answer yields,
/// and which answers say the session has ended.
package struct RefreshStep: Sendable, Hashable {
    package var request: RequestTemplate
    /// What the answer yields; `nil` for what the login's yields.
    package var yields: [String: Yield]?
    /// Answers that say the session is over (exit 4), besides the refusal the request's kind means: a 401, or
    /// OAuth 2's `invalid_grant` for its refresh grant.
    package var ended: [Criterion] = []

    package init(request: RequestTemplate, yields: [String: Yield]? = nil, ended: [Criterion] = []) {
        self.request = request
        self.yields = yields
        self.ended = ended
    }

    package var url: URL? { request.fixedURL }

    /// Whether the request is RFC 6749 §6's refresh grant, where only `invalid_grant` ends the session.
    package var isGrant: Bool { request.formValue("grant_type") == "refresh_token" }
}

/// The revocation: the requests that end a session, in order, and which answers mean it ended or was gone.
package struct RevocationStep: Sendable, Hashable {
    /// One request, or one for each token (RFC 7009 revokes the refresh token, then the access token). A request
    /// that needs a token the session has not got is not sent.
    package var requests: [Request]
    /// Answers beside 2xx that say the session was ended (allauth's logout answers 401).
    package var revoked: [Criterion] = []
    /// Answers that say it was gone already, which ends the logout as well (410 by default).
    package var gone: [Criterion] = [Criterion(status: 410)]
    /// How a request that proves the client (`client: true`) proves it; `nil` for HTTP Basic with a secret, and
    /// the `client_id` field without.
    package var clientAuthentication: ClientAuthentication?

    package struct Request: Sendable, Hashable {
        package var template: RequestTemplate
        /// Whether a refusal of it (a 4xx) is forgiven when a later request succeeds: a server that revokes only
        /// access tokens there (Litestar's logout) refuses the refresh token, and the logout still ended the
        /// session.
        package var mayBeRefused: Bool

        package init(_ template: RequestTemplate, mayBeRefused: Bool = false) {
            self.template = template
            self.mayBeRefused = mayBeRefused
        }
    }

    package init(requests: [Request], clientAuthentication: ClientAuthentication? = nil) {
        self.requests = requests
        self.clientAuthentication = clientAuthentication
    }

    /// Where the first request goes.
    package var url: URL? { requests.first?.template.fixedURL }

    /// Whether a request presents the access token, which the server would refuse expired: as its token, or as an RFC
    /// 7009 client's proof. One that only names it, as what RFC 7009 revokes, needs no live one.
    package var sendsAccessToken: Bool {
        requests.contains { request in
            request.template.token?.inputs.contains("access") == true
                || request.template.headers.values.contains { $0.inputs.contains("access") }
                || (request.template.client && clientAuthentication == .bearer)
        }
    }

    /// Whether a request names the access token as what it ends, in its URL, query or body (RFC 7009's `token`),
    /// rather than only presenting it in a header as its proof. A revocation of the refresh token that the access
    /// token merely authorizes may leave that token working until it expires, as a JWT blacklist does.
    package var namesAccessToken: Bool {
        requests.contains { $0.template.namedInputs.contains("access") }
    }

    /// Whether every request names the session by its refresh token, so that without one there is nothing to end.
    var needsRefreshToken: Bool {
        !requests.isEmpty && requests.allSatisfy { $0.template.required.contains("refresh") }
    }
}

/// The profile: the request that reads the current user, and where in the answer.
package struct ProfileStep: Sendable, Hashable {
    package var request: RequestTemplate
    /// The member the answer keeps the profile in, as a dotted path; `nil` for the whole answer, or the object of
    /// its only member `data`.
    package var unwrap: String?
    /// The fields shown first, in this order, with labels for people; the others follow, sorted by name.
    package var labels: [ProfileLabel] = []

    package init(request: RequestTemplate, unwrap: String? = nil) {
        self.request = request
        self.unwrap = unwrap
    }

    /// Where the profile is read; `nil` when its URL names an input, such as the login's user id.
    package var url: URL? { request.fixedURL }
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
    /// `--with-token` alone: the server takes tokens people bring (personal access tokens, API keys), and has no
    /// login that swaggerctl sends.
    case token
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
