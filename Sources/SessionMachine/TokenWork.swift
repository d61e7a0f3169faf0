import FoundationEssentials
import SwaggerModel

/// The I/O that settles a session's token, which ``MainCoordinator`` asks its owner for: read the token, or renew
/// it under the account's refresh lock. The owner carries it out and reports what it found as a ``TokenResult``;
/// whether to renew, whether another process's failure answers this one, and whether the renewal can be stored are
/// the machine's decisions, made from those results.
///
/// The refresh lock is taken by ``lock(_:)`` and held while the machine asks for more of this work: it is released
/// before the first action that is not, as ``MainCoordinator/Action/keepsLock`` says.
package enum TokenWork: Sendable, Hashable {
    /// Read the stored access token, only that (the refresh token is read under the lock); then report
    /// ``TokenResult/accessToken(_:)``.
    case readAccessToken(SessionRecord)
    /// Read the session's tokens with the keys they are bound to, which they are of no use without; then report
    /// ``TokenResult/credentials(_:)``, or ``TokenResult/keysMissing(_:)`` when the DPoP key the record names is not
    /// among them.
    case readCredentials(SessionRecord)
    /// Note the time, take the account's refresh lock, and read its record, its tokens (with their keys) and what a
    /// failed refresh left in the lock; then report ``TokenResult/locked(_:)``.
    case lock(Account)
    /// Learn, changing nothing, that the renewed session could be stored; then report ``TokenResult/renewable`` or
    /// ``TokenResult/notRenewable(_:)``.
    case checkRenewable(Session)
    /// Send the refresh for the session of the record; then report ``TokenResult/refreshed(_:)`` or
    /// ``TokenResult/refreshFailed(_:)``.
    case refresh(RefreshRequest, of: SessionRecord)
    /// Store the renewed session; then report ``TokenResult/stored`` or ``TokenResult/notStored(_:)``.
    case store(Session)
    /// Leave the note in the lock file for the commands waiting for it, or clear what a failure left with `nil`;
    /// then report ``TokenResult/noteLeft``.
    case leaveNote(RefreshNote?)
}

/// What the owner found doing a ``TokenWork``.
package enum TokenResult: Sendable, Hashable {
    /// The stored access token; `nil` when no backend holds one.
    case accessToken(String?)
    /// The stored tokens and keys; `nil` when no backend holds them.
    case credentials(Credentials?)
    /// The stored tokens, without the DPoP key their record says they are bound to (or with another).
    case keysMissing(Credentials)
    case locked(LockedSession)
    case renewable
    case notRenewable(SwaggerError)
    case refreshed(TokenGrant)
    case refreshFailed(APIServiceError)
    case stored
    case notStored(SwaggerError)
    case noteLeft
}

/// The session as read again under its refresh lock.
package struct LockedSession: Sendable, Hashable {
    /// `nil` when the session is no longer stored.
    package var record: SessionRecord?
    /// `nil` when the tokens are no longer stored.
    package var credentials: Credentials?
    /// What the last refresh that failed under the lock left.
    package var note: RefreshNote?
    /// When this command began to wait for the lock: a note left since then is of a refresh it waited for.
    package var waitingSince: Date

    package init(record: SessionRecord?, credentials: Credentials?, note: RefreshNote? = nil, waitingSince: Date) {
        self.record = record
        self.credentials = credentials
        self.note = note
        self.waitingSince = waitingSince
    }
}

extension TokenResult {
    /// The case's name, which is all an invalid event may show: the payloads hold tokens.
    package var name: String {
        switch self {
        case .accessToken: "accessToken"
        case .credentials: "credentials"
        case .keysMissing: "keysMissing"
        case .locked: "locked"
        case .renewable: "renewable"
        case .notRenewable: "notRenewable"
        case .refreshed: "refreshed"
        case .refreshFailed: "refreshFailed"
        case .stored: "stored"
        case .notStored: "notStored"
        case .noteLeft: "noteLeft"
        }
    }
}
