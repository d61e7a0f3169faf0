import FoundationEssentials

/// A value that holds a token: its descriptions and its mirror show only its type's name, so `print`,
/// string interpolation, `dump` and a debugger never reveal the token.
package protocol Redacting: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension Redacting {
    /// `TypeName(redacted)`.
    package var description: String { "\(Self.self)(redacted)" }
    package var debugDescription: String { description }
    /// A mirror with no children.
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// The secrets of a session.
package struct Credentials: Sendable, Hashable, Codable, Redacting {
    /// The bearer token for API calls; `nil` only when a keyring item of it was deleted by another program
    /// while the refresh token's survived, which renews it.
    package var accessToken: String?
    /// The refresh token, when the server sent one.
    package var refreshToken: String?
    /// The OAuth 2 client secret the session authenticates its client with, when it has one.
    package var clientSecret: String?
    /// The private key the session's client proves itself with, in place of a secret.
    package var clientKey: ClientKey?
    /// The private key, as PEM, that the session's tokens are bound to (DPoP, RFC 9449), and that signs a proof for
    /// every request that presents them.
    package var proofKey: String?

    package init(
        accessToken: String?, refreshToken: String? = nil, clientSecret: String? = nil, clientKey: ClientKey? = nil,
        proofKey: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.clientSecret = clientSecret
        self.clientKey = clientKey
        self.proofKey = proofKey
    }

    /// Whether `text` can be a token: one or more visible ASCII characters, which is what an `Authorization`
    /// header and a shell's `$(swaggerctl token)` can carry. A "token" with a control character, a space or a
    /// line break is not one, and printing it could drive the terminal.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// The tokens that a login or a refresh gave.
package struct TokenGrant: Sendable, Hashable, Redacting {
    package var accessToken: String
    package var refreshToken: String?
    /// The user name the server returned, if any.
    package var username: String?
    /// The access token's lifetime, when the server said (`expiresIn`, `expires_in`): what an opaque token's
    /// expiry is known by.
    package var expiresIn: Duration?
    /// When the access token expires, where the server says so outright (Keystone's `expires_at`).
    package var expiresAt: Date?
    /// The OpenID Connect ID token, which says who signed in; it is read, never stored.
    package var idToken: String?
    /// What else the answer yielded, by name, for a later step's templates: the login's user id in the profile's
    /// URL. Kept with the session record, so never a secret.
    package var outputs: [String: String] = [:]

    package init(
        accessToken: String, refreshToken: String? = nil, username: String? = nil, expiresIn: Duration? = nil,
        idToken: String? = nil, expiresAt: Date? = nil, outputs: [String: String] = [:]
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.username = username
        self.expiresIn = expiresIn
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.outputs = outputs
    }
}

extension TokenGrant {
    /// The tokens, as a session keeps them.
    package var credentials: Credentials { Credentials(accessToken: accessToken, refreshToken: refreshToken) }
}
