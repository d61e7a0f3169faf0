import SwaggerModel

/// What the person set on the command line to describe a server: each member is the flag of its name, such as
/// `refreshPath` for `--refresh-path`. Every member is optional; what is not set comes from the saved session,
/// discovery, or the kind's defaults.
package struct ServerFlags: Sendable, Hashable {
    package var kind: ServerKind?
    /// A path under the server's URL, or an absolute URL; so are the other paths.
    package var loginPath: String?
    package var refreshPath: String?
    package var revokePath: String?
    package var profilePath: String?
    /// The server's OpenAPI document, for discovery.
    package var openAPI: String?
    package var clientID: String?
    package var scope: String?
    package var accessTokenField: String?
    package var refreshTokenField: String?
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
