import SwaggerModel

/// The server a command talks to and the session it uses there, resolved once by
/// ``SessionController/select(server:name:usingEnvironmentToken:)``.
package struct SessionSelection: Sendable, Hashable, Redacting {
    package var server: ServerURL
    /// The account asked for with `--email` or `--username`, if any.
    package var name: String?
    /// The stored session: the one for ``name``, else the active one on ``server``; `nil` when there is none.
    package var record: SessionRecord?
    /// `SWAGGERCTL_TOKEN`, when the command uses it instead of a stored session.
    package var environmentToken: String?
    /// What the server registry knows about the server; `nil` when it has no entry for it.
    package var entry: ServerEntry?

    package init(
        server: ServerURL, name: String? = nil, record: SessionRecord? = nil, environmentToken: String? = nil,
        entry: ServerEntry? = nil
    ) {
        self.server = server
        self.name = name
        self.record = record
        self.environmentToken = environmentToken
        self.entry = entry
    }

    /// How to talk to the server: its session's description, else the registry's; `nil` when nothing describes it.
    package var serverDescription: ServerDescription? {
        record?.serverDescription ?? entry?.serverDescription
    }

    /// How the token goes with the person's own requests: as the description says, else as RFC 6750's bearer
    /// token, which is how `SWAGGERCTL_TOKEN` goes to a server that nothing describes.
    package var tokenUse: TokenUse { serverDescription?.token ?? .bearer }
}

extension SwaggerError {
    /// `status` found nothing stored and no `SWAGGERCTL_TOKEN`.
    static let notLoggedInAnywhere = SwaggerError(
        .authentication, "Not logged in to any server. Run `swaggerctl login -s URL -e you@example.com`.")

    /// A command that uses a session, with no `-s`, no `SWAGGERCTL_SERVER`, and no server ever logged in to.
    static let noServer = SwaggerError(
        .authentication, "No server named and none logged in to. Run `swaggerctl login -s URL -e you@example.com`.")

    /// `login` off a terminal, with no server named and none logged in to before.
    static let loginWithoutServer = SwaggerError(
        .usage, "Which server? Give its URL with -s URL, or set SWAGGERCTL_SERVER.")

    /// `SWAGGERCTL_TOKEN` is set, and nothing says which server it is for.
    static let tokenWithoutServer = SwaggerError(
        .usage, "SWAGGERCTL_TOKEN is set, but not its server. Give the server with -s URL, or set SWAGGERCTL_SERVER.")
}
