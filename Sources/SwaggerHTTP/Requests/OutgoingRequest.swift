import FoundationEssentials
import NIOHTTP1
import SwaggerModel

/// One request as ``APIService/start(_:)`` sends it: a login, refresh, revocation, grant, profile, document or
/// probe, or one of the person's own requests and pages.
struct OutgoingRequest: Sendable {
    var method: HTTPMethod
    var url: URL
    /// The request's own headers, the person's among them; the `User-Agent` and the ``credential`` replace any of
    /// the same name.
    var headers: HTTPHeaders
    var body: Data?
    var credential: Credential?
    /// Whether ``RetryPolicy`` applies: to the profile and the person's requests, which are repeated only when
    /// their method is idempotent.
    var retries: Bool
    /// The most of the answer's body that is read (``ResponseCollector``).
    var limit: Int
    /// What the request carries besides the credential's token (a password, a client secret, a refresh token),
    /// hidden wherever it appears, for the rest of the command.
    var secrets: [String?]
    /// For a login or refresh, what its answer yields: a successful answer's tokens are learned as secrets before
    /// anything of it is shown.
    var yields: [String: Yield]?
    /// The session's server, when the request goes elsewhere on its behalf: a failure to reach another host says
    /// whose it is.
    var server: ServerURL?

    init(
        _ method: HTTPMethod, _ url: URL, headers: HTTPHeaders = [:], body: Data? = nil, credential: Credential? = nil,
        retries: Bool = false, limit: Int = ResponseCollector.defaultLimit, secrets: [String?] = [],
        yields: [String: Yield]? = nil, server: ServerURL? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credential = credential
        self.retries = retries
        self.limit = limit
        self.secrets = secrets
        self.yields = yields
        self.server = server
    }
}

/// A token in the header its ``TokenUse`` names: `Authorization: Bearer <token>`, `Authorization: Token <token>`,
/// `X-API-Key: <token>`.
struct Credential: Sendable {
    var token: String
    var use: TokenUse

    /// What the credential hides: the token, and a Basic one's password (RFC 7617), which a server may quote alone.
    /// A session made by a Basic sign-in keeps only base64(account:password), so a later command learns the password
    /// here, from the one request that carries it.
    var secrets: [String?] { [token, use.basicCredentials(in: token)?.password] }
}
