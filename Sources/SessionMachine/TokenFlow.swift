import FoundationEssentials
import SwaggerModel

/// A machine that uses a session's token, for which the owner settles the token: reads it, or renews it under the
/// refresh lock. ``MainCoordinator`` is one; ``RequestCoordinator`` holds one and turns its steps into its own.
///
/// Each event returns what the owner does next; ``Step`` is where the machine goes on once the token is settled.
package protocol TokenFlow: Sendable {
    associatedtype Step: Sendable, Hashable

    /// The stored access token was read: `nil` when no backend holds one.
    mutating func tokenRead(_ accessToken: String?) -> TokenRead<Step>

    /// The refresh lock is held, and the session was read again under it: `record` and `credentials` are `nil`
    /// when they are no longer stored.
    mutating func lockTaken(record: SessionRecord?, credentials: Credentials?, now: Date) -> TokenLocked<Step>

    /// The trial before the refresh found that the renewed session could not be stored.
    mutating func renewalNotWritable(_ error: SwaggerError) -> SessionFailure

    /// The server renewed the tokens: the renewed session, for the owner to store before ``rotationStored()``.
    mutating func refreshed(_ grant: TokenGrant, now: Date) -> Session

    /// The renewed session is stored; the lock is released next.
    mutating func rotationStored() -> Step

    /// The renewed session could not be stored.
    mutating func rotationNotStored(_ error: SwaggerError) -> SessionFailure

    /// The refresh request failed.
    mutating func refreshFailed(_ error: APIServiceError) -> TokenRefreshFailed<Step>
}

/// What follows the start of a use of a session.
package enum TokenStart<Step: Sendable & Hashable>: Sendable, Hashable {
    /// Read the stored access token (only that: the refresh token is read under the lock), then send
    /// ``TokenFlow/tokenRead(_:)``.
    case readAccessToken(SessionRecord)
    /// Take the account's refresh lock, read its record and tokens again, then send
    /// ``TokenFlow/lockTaken(record:credentials:now:)``.
    case lockForRefresh(Account)
    case proceed(Step)
    case fail(SessionFailure)
}

/// What follows ``TokenFlow/tokenRead(_:)``.
package enum TokenRead<Step: Sendable & Hashable>: Sendable, Hashable {
    /// The access token is gone but the session can be renewed: take the lock as for
    /// ``TokenStart/lockForRefresh(_:)``.
    case lockForRefresh(Account)
    case proceed(Step)
    case fail(SessionFailure)
}

/// What follows ``TokenFlow/lockTaken(record:credentials:now:)``. Only ``refresh(_:)`` keeps the lock.
package enum TokenLocked<Step: Sendable & Hashable>: Sendable, Hashable {
    /// Learn, changing nothing, that the renewed session could be stored, then (or else send
    /// ``TokenFlow/renewalNotWritable(_:)``) send this refresh, still holding the lock, and then send
    /// ``TokenFlow/refreshed(_:now:)`` or ``TokenFlow/refreshFailed(_:)``.
    case refresh(RefreshRequest)
    /// Release the lock and go on.
    case proceed(Step)
    /// The session cannot be renewed: remove it, release the lock, and report.
    case endSession(SessionEnd)
    /// Release the lock and stop.
    case fail(SessionFailure)
}

/// What follows ``TokenFlow/refreshFailed(_:)``. The lock is released first in every case.
package enum TokenRefreshFailed<Step: Sendable & Hashable>: Sendable, Hashable {
    /// The server rejected the refresh token: remove the session and report.
    case endSession(SessionEnd)
    /// The server could not be reached, and the purpose has another way.
    case proceed(Step)
    /// Stop; the session is kept.
    case fail(SessionFailure)
}

extension TokenStart {
    /// The same action, with its step made `Other`'s.
    func map<Other>(_ transform: (Step) -> Other) -> TokenStart<Other> {
        switch self {
        case .readAccessToken(let record): .readAccessToken(record)
        case .lockForRefresh(let account): .lockForRefresh(account)
        case .proceed(let step): .proceed(transform(step))
        case .fail(let failure): .fail(failure)
        }
    }
}

extension TokenRead {
    func map<Other>(_ transform: (Step) -> Other) -> TokenRead<Other> {
        switch self {
        case .lockForRefresh(let account): .lockForRefresh(account)
        case .proceed(let step): .proceed(transform(step))
        case .fail(let failure): .fail(failure)
        }
    }
}

extension TokenLocked {
    func map<Other>(_ transform: (Step) -> Other) -> TokenLocked<Other> {
        switch self {
        case .refresh(let request): .refresh(request)
        case .proceed(let step): .proceed(transform(step))
        case .endSession(let end): .endSession(end)
        case .fail(let failure): .fail(failure)
        }
    }
}

extension TokenRefreshFailed {
    func map<Other>(_ transform: (Step) -> Other) -> TokenRefreshFailed<Other> {
        switch self {
        case .endSession(let end): .endSession(end)
        case .proceed(let step): .proceed(transform(step))
        case .fail(let failure): .fail(failure)
        }
    }
}
