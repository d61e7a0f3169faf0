import FoundationEssentials
import SwaggerModel

/// Why a flow ends without its result, for the owner to word. A stored session is kept unless a
/// ``SessionEnd`` said to remove it.
package enum SessionFailure: Sendable, Hashable {
    /// A request failed, or the server refused it; the session, if any, is kept. `account` is `nil` for
    /// `SWAGGERCTL_TOKEN`; `description` is the server's, for what the person can check.
    case requestFailed(APIServiceError, server: ServerURL, account: String?, description: ServerDescription?)
    /// Nothing describes the server (no registry entry, no description a record kept), so a use that needs more
    /// than the token cannot be made.
    case undescribed(server: ServerURL)
    /// The server refused `SWAGGERCTL_TOKEN` (401).
    case environmentTokenRejected(server: ServerURL)
    /// `SWAGGERCTL_TOKEN` has expired, and a token that is not stored cannot be refreshed.
    case environmentTokenExpired(server: ServerURL)
    /// The server no longer accepts the session, which the owner has removed.
    case sessionEnded(Account, because: APIServiceError)
    /// The session's record is there, but no backend holds its token.
    case noStoredToken(SessionRecord)
    /// The record says the session's tokens are bound to a DPoP key that the token store does not hold, or holds
    /// another of: they are of no use without it.
    case keyMissing(SessionRecord)
    /// The session disappeared while this process waited for the refresh lock: another one logged out or
    /// found it ended.
    case sessionGone(Account)
    /// The access token has expired, and the server gave no refresh token to renew it.
    case expiredWithoutRefreshToken(SessionRecord)
    /// Refused before anything was sent: `sending` would cross plain HTTP to `server`, another machine, and
    /// nobody allowed it.
    case plainHTTPRefused(server: ServerURL, sending: Secret)
    /// Refused before anything was sent: the description's `foreign` step would take `sending` to another origin
    /// than `server`'s, which nobody allowed (``OriginRule``).
    case foreignOrigin(server: ServerURL, OriginRule.Foreign, sending: Secret)
    /// The login stored its session, but the profile request that followed failed.
    case profileAfterLogin(APIServiceError, SessionRecord)
    /// The login succeeded, but its profile answer is not a profile; nothing was stored.
    case unusableProfile(APIServiceError, Account, ServerDescription)
    /// The login succeeded, but its session could not be stored; nothing was.
    case notStored(Account, SwaggerError)
    /// The server renewed the tokens, spending the old refresh token, but the new ones could not be stored.
    case renewedButNotStored(Account, SwaggerError)
    /// The refresh request was refused, but not with an answer that ends the session (a field the server wanted,
    /// a client it does not know): the session is kept, with its refresh token, which was not spent.
    case renewalRefused(SessionRecord, status: Int, message: String?)
    /// The session could not be written where it is kept, so it was not renewed: the server would spend the
    /// refresh token, and the new one would be lost. The session is as it was.
    case renewalNotWritable(Account, SwaggerError)
    /// A logout that would tell the server could not remove the session's tokens from their store, and left the
    /// session as it was here.
    case tokensNotRemoved(Account, SwaggerError)
    /// The session could not be removed from this machine; `revoked` when the server had ended it already.
    case notRemoved(Account, SwaggerError, revoked: Bool)

    /// The server refused the OAuth 2 client's own credentials (`login --client`); nothing was stored.
    case clientRefused(server: ServerURL, client: AccountName)
    /// The server refused a token the person brought (`login --with-token`); nothing was stored.
    case tokenRefused(server: ServerURL, APIServiceError)
    /// A sign-in in the browser was made by another account than the one asked for; nothing was stored.
    case otherAccountSignedIn(server: ServerURL, asked: String, signedIn: String)
    /// A sign-in in the browser named no account (no ID token, and no profile that says whose it is), and none was
    /// asked for; nothing was stored.
    case unknownAccountSignedIn(server: ServerURL)

    /// A device-code login ended without tokens: the person refused, or the code expired first. Nothing was
    /// stored.
    case deviceLoginEnded(server: ServerURL, DeviceEnding)

    /// A browser login ended without tokens; nothing was stored.
    case browserLoginEnded(server: ServerURL, BrowserEnding)

    /// Why a browser login ended.
    package enum BrowserEnding: Sendable, Hashable {
        /// `access_denied`, with the server's description.
        case denied(String?)
        /// Another error code, with the server's description.
        case refused(String, String?)
        /// The redirect had neither a code nor an error.
        case noCode
        /// No answer came within this long.
        case timedOut(Duration)
    }

    /// Why a device-code login ended.
    package enum DeviceEnding: Sendable, Hashable {
        case denied
        case expired
    }

    /// What a refused plain-HTTP request would have carried.
    package enum Secret: Sendable, Hashable {
        case password
        case tokens(account: String)
        case environmentToken
        /// A token the person brought to `login --with-token`.
        case givenToken
    }
}

/// A session that the server no longer accepts: the owner removes it from every store, with its saved profile,
/// then reports ``SessionFailure/sessionEnded(_:because:)``.
package struct SessionEnd: Sendable, Hashable {
    package var record: SessionRecord
    /// What the server said: a refused refresh, a 401 after one, or a 403.
    package var reason: APIServiceError

    package var failure: SessionFailure { .sessionEnded(record.account, because: reason) }
}

/// A profile to show, and where it came from.
package struct ProfileOutcome: Sendable, Hashable {
    /// Where a shown profile came from.
    package enum Origin: Sendable, Hashable {
        /// The server, just now; `renewed` when the tokens were refreshed on the way.
        case server(renewed: Bool)
        /// The profile that arrived at `receivedAt`, saved, because the server could not be reached.
        case saved(receivedAt: Date, because: APIServiceError)
    }

    package var profile: Profile
    package var origin: Origin
    /// How the server's description lays it out: the fields shown first, under labels.
    package var labels: [ProfileLabel]

    package init(profile: Profile, origin: Origin, labels: [ProfileLabel] = []) {
        self.profile = profile
        self.origin = origin
        self.labels = labels
    }
}

/// Where a flow's access token comes from.
package enum TokenSource: Sendable, Hashable, Redacting {
    /// A session that `login` stored.
    case stored(SessionRecord)
    /// `SWAGGERCTL_TOKEN`, for `server`, described as the server registry says: never stored and never refreshed.
    case environment(token: String, server: ServerURL, description: ServerDescription?)

    package var server: ServerURL {
        switch self {
        case .stored(let record): record.server
        case .environment(_, let server, _): server
        }
    }

    /// `nil` when nothing describes the server: a stored session is then not used at all, and `SWAGGERCTL_TOKEN`
    /// only where its use needs no more than the token (``tokenUse``).
    package var serverDescription: ServerDescription? {
        switch self {
        case .stored(let record): record.serverDescription
        case .environment(_, _, let description): description
        }
    }

    /// What the session's earlier answers yielded, for its steps' templates; none for a token from the environment.
    package var outputs: [String: String] {
        if case .stored(let record) = self { record.outputs } else { [:] }
    }

    /// The client id of a client's own session; `nil` for a person's, and for a token from the environment.
    package var client: String? {
        if case .stored(let record) = self, record.isClient { record.name } else { nil }
    }

    var isStored: Bool {
        if case .stored = self { true } else { false }
    }

    /// How the token goes with a request: as the description says, else as RFC 6750's bearer token, which is how
    /// `SWAGGERCTL_TOKEN` is sent to a server that nothing describes.
    package var tokenUse: TokenUse { serverDescription?.token ?? .bearer }

    /// A failed request's failure, named after this source. A refused `SWAGGERCTL_TOKEN` is the person's to
    /// replace: nothing here can renew it.
    func failure(_ error: APIServiceError) -> SessionFailure {
        switch self {
        case .stored(let record):
            .requestFailed(error, server: record.server, account: record.name, description: record.serverDescription)
        case .environment(_, let server, _) where error.isTokenRejection: .environmentTokenRejected(server: server)
        case .environment(_, let server, let description):
            .requestFailed(error, server: server, account: nil, description: description)
        }
    }
}
