/// The server a command talks to and the session it uses there, resolved once by
/// ``SessionController/select(serverFlag:email:usingEnvironmentToken:)``.
public struct SessionSelection: Sendable, Hashable, Redacting {
    /// The API's base URL.
    public var server: ServerURL
    /// The account asked for with `--email`, if any.
    public var email: String?
    /// The stored session: the one for ``email``, else the active one on ``server``; `nil` when there is none.
    public var record: SessionRecord?
    /// `SWAGGERCTL_TOKEN`, when the command uses it instead of a stored session.
    public var environmentToken: String?

    /// Creates a selection.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account asked for, if any.
    ///   - record: The stored session, if any.
    ///   - environmentToken: `SWAGGERCTL_TOKEN`, when it is used instead.
    public init(
        server: ServerURL, email: String? = nil, record: SessionRecord? = nil, environmentToken: String? = nil
    ) {
        self.server = server
        self.email = email
        self.record = record
        self.environmentToken = environmentToken
    }
}
