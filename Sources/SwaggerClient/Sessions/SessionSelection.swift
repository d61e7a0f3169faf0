import SwaggerModel

/// The server a command talks to and the session it uses there, resolved once by
/// ``SessionController/select(server:email:usingEnvironmentToken:)``.
package struct SessionSelection: Sendable, Hashable, Redacting {
    package var server: ServerURL
    /// The account asked for with `--email`, if any.
    package var email: String?
    /// The stored session: the one for ``email``, else the active one on ``server``; `nil` when there is none.
    package var record: SessionRecord?
    /// `SWAGGERCTL_TOKEN`, when the command uses it instead of a stored session.
    package var environmentToken: String?

    package init(
        server: ServerURL, email: String? = nil, record: SessionRecord? = nil, environmentToken: String? = nil
    ) {
        self.server = server
        self.email = email
        self.record = record
        self.environmentToken = environmentToken
    }
}
