/// Why an API call failed, in terms of the account API rather than of HTTP libraries.
public enum APIServiceError: Error, Sendable, Hashable {
    /// The server answered the login with 401 or 403, saying why when `message` is there: wrong credentials,
    /// an unknown app id, a locked or disabled account.
    case badCredentials(status: Int, message: String?)
    /// The server answered a bearer-token request with 401.
    case tokenRejected
    /// The server answered a refresh with 401: the refresh token is unknown, expired, revoked or spent, and
    /// the session has ended.
    case refreshRejected
    /// The server answered a bearer-token request with 403: it knows the token and will not serve it, for
    /// example because the account is disabled.
    case forbidden(message: String?)
    /// The server refused the request with another 4xx status.
    case requestRejected(status: Int, message: String?)
    /// The server answered with a redirect, which swaggerctl does not follow with credentials attached.
    case redirected(status: Int, location: String?)
    /// The server failed with a 5xx status, or stayed too busy (429) through every attempt.
    case serverFailed(status: Int)
    /// The server's answer does not match the API: wrong content type, malformed JSON, or missing fields.
    case contractViolation(String)
    /// The profile answer is not a JSON object, or not JSON at all: the address names something else.
    case notAProfile(String)
    /// No connection could be made or kept: refused, unresolvable host, or dropped.
    case unreachable(String)
    /// The server did not answer in time.
    case timedOut
    /// The TLS handshake failed, for the reason given.
    case tls(TLSFailure)
}
