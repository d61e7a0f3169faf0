import FoundationEssentials
import SwaggerModel

extension LogoutCoordinator.Warning {
    /// The line for something that went wrong in a logout that went on all the same.
    package func line(in context: MessageContext) -> String {
        switch self {
        case .serverCannotRevoke(let server):
            "\(server) cannot revoke sessions, so its tokens stay valid there until they expire; --local skips "
                + "this."
        case .tokensUnreadable(let error, _):
            "logged out here, but the server was not told: \(error.message)"
        case .tokensMissing(let server):
            "logged out here, but the server was not told: no store held the token, which \(server) may still take."
        case .tokensLeft(let backend):
            // The store's own error is worded for a logout that stopped, and this one went on.
            "forgotten here, but its token may remain in the \(backend.place), which refused to remove it."
        case .plainHTTPRefused(_, let to):
            "logged out here, but the server was not told: plain HTTP to \(to.hostAndPort) is refused "
                + "(SWAGGERCTL_ALLOW_HTTP=1 allows it)."
        case .foreignOrigin(let account, let foreign):
            "logged out here, but \(account.server) was not told: its \(foreign.step) is on \(foreign.origin), "
                + "not allowed."
        case .revocationFailed(.unreachable(let detail), _, _):
            // Nothing here can end it any more: the address and the server's state are no longer the person's to fix.
            "logged out here, but the server was not told: it could not be reached (\(detail)), and the session works "
                + "there until it expires."
        case .revocationFailed(.timedOut, _, _):
            "logged out here, but the server was not told: it did not answer within \(context.timeout.secondsText), "
                + "and the session works there until it expires."
        case .revocationFailed(let error, let server, let description):
            "logged out here, but the server was not told: "
                + error.rendered(on: server, account: nil, description: description, in: context)
                .clause(naming: server)
        case .undescribed(let server):
            "logged out here, but the server was not told: swaggerctl has no description of \(server) any more."
        case .accessTokenStays(let server, let until, endedRefresh: true):
            "\(server) ended the refresh token; its access token stays valid there \(RelativeTime.stays(until, now: context.now))."
        case .accessTokenStays(let server, let until, endedRefresh: false):
            "the token stays valid on \(server) \(RelativeTime.stays(until, now: context.now)): its logout takes a refresh token, and "
                + "--with-token has none."
        }
    }

    /// The error for a logout that removed the session here, but that the server could have ended and did not.
    package func failure(in context: MessageContext) -> String {
        let line = line(in: context)
        return line.prefix(1).uppercased() + line.dropFirst()
    }
}
