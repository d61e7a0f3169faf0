import FoundationEssentials
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
    /// `--login-body`, `--refresh-with` and `--revoke-with`.
    package var loginShape: LoginShape?
    package var refreshShape: RefreshShape?
    package var revocationShape: RevocationShape?

    package init(
        kind: ServerKind? = nil, loginPath: String? = nil, refreshPath: String? = nil, revokePath: String? = nil,
        profilePath: String? = nil, openAPI: String? = nil, clientID: String? = nil, scope: String? = nil,
        accessTokenField: String? = nil, refreshTokenField: String? = nil, expiresInField: String? = nil,
        loginShape: LoginShape? = nil, refreshShape: RefreshShape? = nil, revocationShape: RevocationShape? = nil
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
        self.loginShape = loginShape
        self.refreshShape = refreshShape
        self.revocationShape = revocationShape
    }

    /// These flags, with `file`'s where these have none: a `--server-file` holds the same flags, and the command
    /// line wins.
    package func over(_ file: ServerFlags) -> ServerFlags {
        ServerFlags(
            kind: kind ?? file.kind, loginPath: loginPath ?? file.loginPath,
            refreshPath: refreshPath ?? file.refreshPath,
            revokePath: revokePath ?? file.revokePath, profilePath: profilePath ?? file.profilePath,
            openAPI: openAPI ?? file.openAPI, clientID: clientID ?? file.clientID, scope: scope ?? file.scope,
            accessTokenField: accessTokenField ?? file.accessTokenField,
            refreshTokenField: refreshTokenField ?? file.refreshTokenField,
            expiresInField: expiresInField ?? file.expiresInField, loginShape: loginShape ?? file.loginShape,
            refreshShape: refreshShape ?? file.refreshShape, revocationShape: revocationShape ?? file.revocationShape)
    }

    /// Reads a `--server-file`: a JSON object whose members are the long flags' names without their dashes,
    /// with string values, such as `{"kind": "custom", "login-path": "/login", "refresh-with": "bearer"}`.
    /// - Throws: `SwaggerError` with code `usage` for a file that is not such an object, naming what is wrong.
    package init(file data: Data, named path: String) throws(SwaggerError) {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw SwaggerError(.usage, "\(path) is not a JSON object of flags, such as {\"kind\": \"custom\"}.")
        }
        self.init()
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard case .string(let text) = value else {
                throw SwaggerError(.usage, "\(path): \"\(name)\" must be a string, as the flag's value would be.")
            }
            func shape<Shape: ShapeText>(_: Shape.Type) throws(SwaggerError) -> Shape {
                guard let shape = Shape(text: text) else {
                    throw SwaggerError(.usage, "\(path): \"\(name)\" cannot be \"\(text.prefix(60))\".")
                }
                return shape
            }
            switch name {
            case "kind":
                guard let kind = ServerKind(rawValue: text), kind != .original else {
                    throw SwaggerError(.usage, "\(path): \"kind\" cannot be \"\(text.prefix(60))\".")
                }
                self.kind = kind
            case "login-path": loginPath = text
            case "refresh-path": refreshPath = text
            case "revoke-path": revokePath = text
            case "profile-path": profilePath = text
            case "openapi": openAPI = text
            case "client-id": clientID = text
            case "scope": scope = text
            case "access-token-field": accessTokenField = text
            case "refresh-token-field": refreshTokenField = text
            case "expires-in-field": expiresInField = text
            case "login-body": loginShape = try shape(LoginShape.self)
            case "refresh-with": refreshShape = try shape(RefreshShape.self)
            case "revoke-with": revocationShape = try shape(RevocationShape.self)
            default:
                throw SwaggerError(.usage, "\(path): \"\(name.prefix(60))\" is not a flag that describes a server.")
            }
        }
    }

    /// The flags that describe a server, by name, for the message that refuses them with the original kind.
    var given: [String] {
        [
            ("--login-path", loginPath), ("--refresh-path", refreshPath), ("--revoke-path", revokePath),
            ("--profile-path", profilePath), ("--openapi", openAPI), ("--client-id", clientID), ("--scope", scope),
            ("--access-token-field", accessTokenField), ("--refresh-token-field", refreshTokenField),
            ("--expires-in-field", expiresInField), ("--login-body", loginShape?.text),
            ("--refresh-with", refreshShape?.text), ("--revoke-with", revocationShape?.text),
        ].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// Whether any flag beyond `--kind` is set.
    package var isEmpty: Bool { given.isEmpty }
}
