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
        var merged = self
        for member in Self.members { member.adopt(&merged, file) }
        return merged
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
            guard let member = Self.members.first(where: { $0.name == name }) else {
                throw SwaggerError(.usage, "\(path): \"\(name.prefix(60))\" is not a flag that describes a server.")
            }
            guard case .string(let text) = value else {
                throw SwaggerError(.usage, "\(path): \"\(name)\" must be a string, as the flag's value would be.")
            }
            guard member.read(&self, text) else {
                throw SwaggerError(.usage, "\(path): \"\(name)\" cannot be \"\(text.prefix(60))\".")
            }
        }
    }

    /// The flags that describe a server, by name, for the message that refuses them with the original kind.
    var given: [String] {
        Self.members.filter { $0.name != "kind" && $0.isSet(self) }.map { "--" + $0.name }
    }

    /// Whether any flag beyond `--kind` is set.
    package var isEmpty: Bool { given.isEmpty }

    /// One flag: its long name, and how its member is read from text, told apart from unset, and taken from
    /// another set of flags. Every use of the flags by name goes through ``members``.
    private struct Member: Sendable {
        var name: String
        var isSet: @Sendable (ServerFlags) -> Bool
        /// Sets the member from a file's text; `false` when the text is not a value it can take.
        var read: @Sendable (inout ServerFlags, String) -> Bool
        /// Sets the member from `other`'s, when it is unset.
        var adopt: @Sendable (inout ServerFlags, ServerFlags) -> Void

        init<Value>(
            _ name: String, _ member: WritableKeyPath<ServerFlags, Value?> & Sendable,
            parse: @escaping @Sendable (String) -> Value?
        ) {
            self.name = name
            isSet = { $0[keyPath: member] != nil }
            read = { flags, text in
                guard let value = parse(text) else { return false }
                flags[keyPath: member] = value
                return true
            }
            adopt = { flags, other in
                if flags[keyPath: member] == nil { flags[keyPath: member] = other[keyPath: member] }
            }
        }
    }

    private static let members: [Member] = [
        // The original kind is the one with no description, so a file cannot name it.
        Member("kind", \.kind) { ServerKind(rawValue: $0).flatMap { $0 == .original ? nil : $0 } },
        Member("login-path", \.loginPath) { $0 }, Member("refresh-path", \.refreshPath) { $0 },
        Member("revoke-path", \.revokePath) { $0 }, Member("profile-path", \.profilePath) { $0 },
        Member("openapi", \.openAPI) { $0 }, Member("client-id", \.clientID) { $0 }, Member("scope", \.scope) { $0 },
        Member("access-token-field", \.accessTokenField) { $0 },
        Member("refresh-token-field", \.refreshTokenField) { $0 },
        Member("expires-in-field", \.expiresInField) { $0 },
        Member("login-body", \.loginShape, parse: LoginShape.init(text:)),
        Member("refresh-with", \.refreshShape, parse: RefreshShape.init(text:)),
        Member("revoke-with", \.revocationShape, parse: RevocationShape.init(text:)),
    ]
}
