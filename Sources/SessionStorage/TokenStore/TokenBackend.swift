import SwaggerModel

/// A place that holds tokens: the keyring (``KeyringBackend``), the file (``FileBackend``) or the kernel keyring
/// (``KernelKeyringBackend``).
///
/// A backend holds only secrets, keyed by ``Account``. What swaggerctl knows about a session besides its
/// secrets lives in the ``SessionList``, so that listing sessions never has to unlock anything. Each backend
/// throws its own error type, so that ``TokenStore`` can tell why the keyring failed, and fall back.
package protocol TokenBackend: Sendable {
    associatedtype Failure: Error

    var kind: BackendKind { get }

    /// Where the secrets are, for people: a file's path, "the Secret Service" or "the kernel keyring".
    var location: String { get }

    /// Stores `credentials` for `account`, replacing any stored before.
    func store(_ credentials: Credentials, for account: Account) async throws(Failure)

    /// The credentials stored for `account`; `nil` when there are none.
    func credentials(for account: Account) async throws(Failure) -> Credentials?

    /// The access token stored for `account`, without the refresh token: what a request with a fresh token
    /// needs, read in one round trip.
    func accessToken(for account: Account) async throws(Failure) -> String?

    /// Removes the credentials stored for `account`, and says whether there were any.
    /// - Throws: ``Failure`` when credentials exist but could not be removed.
    func removeCredentials(for account: Account) async throws(Failure) -> Bool
}

/// What the session controller asks of the token store: the ``TokenStore``, or a stand-in in tests. Every
/// failure is a ``SwaggerError`` ready to show.
package protocol TokenStoring: Sendable {
    /// Stores `credentials` for `account` where the choice allows.
    /// - Returns: The backend that now holds them, for the session's record.
    func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) -> BackendKind
    /// The tokens of the session that `record` describes; `nil` when no allowed backend holds any.
    func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials?
    /// The access token of the session that `record` describes, without its refresh token.
    func accessToken(for record: SessionRecord) async throws(SwaggerError) -> String?
    /// Replaces the tokens of `session` in the backend its record names, and nowhere else. They are on the disk
    /// when this returns: a renewal's must be before its access token is used.
    func replace(_ session: Session) async throws(SwaggerError)
    /// Fails when ``replace(_:)`` could not store `session`'s tokens now, and loses nothing: asked before a
    /// refresh spends the refresh token.
    func checkReplaceable(_ session: Session) async throws(SwaggerError)
    /// Removes `account`'s tokens from every backend the choice allows.
    /// - Returns: Whether any backend held a token.
    func remove(_ account: Account, recordedIn recorded: BackendKind?) async throws(SwaggerError) -> Bool
    /// Where `kind` keeps `account`'s token, for `status`: a file's path, or the keyring item's attributes.
    func location(of kind: BackendKind, for account: Account) -> String
    /// Fails when the store cannot take a token for `server` now: asked before a login sends anything, so that a
    /// store that cannot keep what the server gives leaves no session on the server.
    func checkReady(on server: ServerURL) async throws(SwaggerError)
}

extension TokenStoring {
    package func checkReady(on server: ServerURL) async throws(SwaggerError) {}
}
