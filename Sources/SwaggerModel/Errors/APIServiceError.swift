import FoundationEssentials

/// Why an API call failed, in terms of the account API rather than of HTTP libraries.
package enum APIServiceError: Error, Sendable, Hashable {
    /// The server answered the login with 401 or 403, saying why when `message` is there: wrong credentials,
    /// an unknown app id, a locked or disabled account.
    case badCredentials(status: Int, message: String?)
    /// The server answered a request with its token with 401; `challenge` is the authentication scheme its
    /// `WWW-Authenticate` asked for, lowercased, when it named one.
    case tokenRejected(challenge: String?)
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
    /// What came back was not HTTP at all: the port speaks TLS, SSH or something else.
    case notHTTP
    /// The profile answer is not a JSON object, or not JSON at all: the address names something else.
    case notAProfile(String)
    /// No connection could be made or kept: refused, unresolvable host, or dropped.
    case unreachable(String)
    /// The server did not answer in time.
    case timedOut
    /// The TLS handshake failed, for the reason given.
    case tls(TLSFailure)
    /// The request body is larger than `limit` bytes, so nothing was sent.
    case requestTooLarge(limit: Int)
    /// The server answered a request made with a DPoP proof with a token of this type, not bound to the key.
    case tokenNotBound(String)
    /// The client's private key cannot sign: it is not an EC P-256 or P-384, RSA or Ed25519 key in PEM.
    case clientKeyUnusable
    /// The proxy (as logs show it, its password hidden) failed the request before the server could answer.
    case proxyFailed(proxy: String, ProxyFailure)
    /// A failure to reach or to trust `origin`, which is not the session's server but serves it, such as an
    /// OAuth 2 token endpoint on a host of its own.
    indirect case elsewhere(ServerURL, APIServiceError)
}

/// Why a proxy failed a request.
package enum ProxyFailure: Sendable, Hashable {
    /// No connection could be made to the proxy.
    case unreachable(String)
    /// The proxy wants credentials, or others than it was given (HTTP 407).
    case authenticationRequired
    /// The proxy would not open a tunnel to the server.
    case refused
}

extension APIServiceError {
    /// Whether the server could not be reached, or not trusted, as opposed to one answer that could not be read: a
    /// search for its documents stops at the first, and goes on to the next place after the second.
    package var meansUnreachable: Bool {
        switch self {
        case .unreachable, .timedOut, .tls, .proxyFailed, .elsewhere, .notHTTP: true
        default: false
        }
    }

    /// Words with which servers refuse credentials, lowercased: Django REST framework's "Unable to log in with
    /// provided credentials.", simplejwt's "No active account found with the given credentials", FastAPI's
    /// "Incorrect username or password".
    static let refusalWords = [
        "credential", "incorrect", "wrong", "invalid password", "invalid username", "invalid user", "invalid email",
        "invalid e-mail", "invalid login", "bad username", "bad password", "bad email", "authentication failed",
        "login failed", "unable to log in", "password does not match", "passwords do not match",
        "do not match our records", "no active account", "not authorized", "are not correct", "is not correct",
    ]

    /// Whether a server's words about a failed login say the credentials were refused, rather than the request.
    package static func speaksOfCredentials(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return refusalWords.contains(where: lowered.contains)
    }

    /// Whether the server refused the token (401), whatever scheme it asked for.
    package var isTokenRejection: Bool {
        if case .tokenRejected = self { true } else { false }
    }

    /// Whether nothing at the address answers the request: no such path (404), not that method (405), or a server
    /// that implements no such method at all (501), as a static file server does a `POST`.
    var meansNothingThere: Bool {
        switch self {
        case .requestRejected(let status, _): status == 404 || status == 405
        case .serverFailed(let status): status == 501
        default: false
        }
    }

    /// The server could not be reached at all, so what was saved is the best there is: refused, unresolvable
    /// or timed out. Never a TLS failure, an HTTP status or a malformed answer.
    package var isUnreachable: Bool {
        switch self {
        case .unreachable, .timedOut: true
        case .elsewhere(_, let failure): failure.isUnreachable
        default: false
        }
    }
}

/// Why a TLS connection failed, in words a person can act on.
package enum TLSFailure: Sendable, Hashable {
    /// The certificate chain does not lead to a trusted authority.
    case untrusted
    /// The certificate expired at this time.
    case expired(Date)
    /// The certificate is not valid until this time.
    case notYetValid(Date)
    /// The certificate is for another host name.
    case wrongHost
    /// The two sides share no TLS version or cipher.
    case noCommonProtocol
    /// What answered does not speak TLS: probably a plain HTTP port.
    case notTLS
    /// Any other handshake failure.
    case handshakeFailed
    /// A file of the trust store (`SSL_CERT_FILE`, `--ca-cert`) holds no certificate that can be loaded.
    case unloadableTrustStore(String)
}
