import SwaggerModel

/// What the person set on the command line to describe a server. Every member is optional; what is not set
/// comes from the saved session, discovery, or the kind's defaults.
package struct ServerFlags: Sendable, Hashable {
    /// `--kind`.
    package var kind: ServerKind?
    /// `--login-path`: a path under the server's URL, or an absolute URL.
    package var loginPath: String?
    /// `--refresh-path`.
    package var refreshPath: String?
    /// `--revoke-path`.
    package var revokePath: String?
    /// `--profile-path`.
    package var profilePath: String?
    /// `--openapi`: the server's OpenAPI document, for discovery.
    package var openAPI: String?
    /// `--client-id`.
    package var clientID: String?
    /// `--scope`.
    package var scope: String?
    /// `--access-token-field`.
    package var accessTokenField: String?
    /// `--refresh-token-field`.
    package var refreshTokenField: String?
    /// `--expires-in-field`.
    package var expiresInField: String?

    package init(
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

    /// The flags that describe a server, by name, for the message that refuses them with the original kind.
    var given: [String] {
        [
            ("--login-path", loginPath), ("--refresh-path", refreshPath), ("--revoke-path", revokePath),
            ("--profile-path", profilePath), ("--openapi", openAPI), ("--client-id", clientID), ("--scope", scope),
            ("--access-token-field", accessTokenField), ("--refresh-token-field", refreshTokenField),
            ("--expires-in-field", expiresInField),
        ].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// Whether any flag beyond `--kind` is set.
    package var isEmpty: Bool { given.isEmpty }
}
