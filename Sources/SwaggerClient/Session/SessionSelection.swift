/// The server a command talks to and the stored session it uses there, resolved once by
/// ``SessionController/select(serverFlag:email:)``.
public struct SessionSelection: Sendable, Hashable {
    /// The API's base URL.
    public var server: ServerURL
    /// The account asked for with `--email`, if any.
    public var email: String?
    /// The stored session: the one for ``email``, else the newest on ``server``; `nil` when there is none.
    public var record: SessionRecord?

    /// Creates a selection.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account asked for, if any.
    ///   - record: The stored session, if any.
    public init(server: ServerURL, email: String? = nil, record: SessionRecord? = nil) {
        self.server = server
        self.email = email
        self.record = record
    }
}
