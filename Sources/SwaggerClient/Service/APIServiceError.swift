/// Why an API call failed, in terms of the account API rather than of HTTP libraries.
public enum APIServiceError: Error, Sendable, Hashable {
    /// The server answered the login with 401 or 403.
    case badCredentials
    /// The server answered a bearer-token request with 401.
    case tokenRejected
    /// The server answered a refresh with 401: the refresh token is unknown, expired, revoked or spent, and
    /// the session has ended.
    case refreshRejected
    /// The server refused the request with another 4xx status (or 403 on a token request).
    case requestRejected(status: Int, message: String?)
    /// The server answered with a redirect, which swaggerctl does not follow with credentials attached.
    case redirected(status: Int, location: String?)
    /// The server failed with a 5xx status.
    case serverFailed(status: Int)
    /// The server's answer does not match the API: wrong content type, malformed JSON, or missing fields.
    case contractViolation(String)
    /// No connection could be made or kept: refused, unresolvable host, or dropped.
    case unreachable(String)
    /// The server did not answer in time.
    case timedOut
    /// The TLS handshake failed, for example because the certificate is not trusted.
    case tls(String)
}
