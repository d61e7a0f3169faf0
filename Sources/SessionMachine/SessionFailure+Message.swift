import FoundationEssentials
import SwaggerModel

extension SessionFailure {
    /// What stopped the flow, to which session, and what to do next, for the session of `record`, when there is
    /// one: a session whose key the kernel keyring dropped by itself (at a reboot, or when its keyring expired) is
    /// told so, since nothing the person did removed it, and a client's session is signed in again as a client.
    package func rendered(in context: MessageContext, session: SessionRecord? = nil) -> SwaggerError {
        let record: SessionRecord? =
            switch self {
            case .noStoredToken(let own), .expiredWithoutRefreshToken(let own), .keyMissing(let own): own
            default: session
            }
        func loginCommand(_ account: Account) -> String {
            record?.isClient == true && record?.account == account ? account.clientLoginCommand : account.loginCommand
        }
        if case .noStoredToken(let record) = self, record.backend == .kernel {
            return SwaggerError(
                .authentication,
                "The kernel keyring has dropped this session (after a reboot, or days unused). Run "
                    + "`\(loginCommand(record.account))`.")
        }
        switch self {
        case .requestFailed(let error, let server, let email, let description):
            return error.rendered(on: server, account: email, description: description, in: context)
        case .renewalRefused(let record, let status, let said):
            let reason = said.map { ": \(TerminalText.quoted($0))" } ?? ""
            return SwaggerError(
                .failure,
                "Renewal refused (HTTP \(status))\(reason); the session is kept. Log in again: "
                    + "`\(loginCommand(record.account))`.")
        case .environmentTokenRejected(let server):
            return SwaggerError(
                .authentication,
                "\(server) rejected SWAGGERCTL_TOKEN: it has expired or been revoked. Set a valid token, or unset it "
                    + "to use the stored session.")
        case .environmentTokenExpired:
            return SwaggerError(
                .authentication,
                "SWAGGERCTL_TOKEN has expired, and swaggerctl cannot renew a token it did not store. Set a fresh "
                    + "token, or unset it to use the stored session.")
        case .sessionEnded(let account, let reason):
            let ended =
                if case .forbidden(let message?) = reason {
                    "The server ended the session (HTTP 403): \(TerminalText.quoted(message))."
                } else if case .requestRejected(410, _) = reason {
                    "The server ended the session (HTTP 410 Gone); it is removed here."
                } else {
                    "The session has ended: the server refuses it."
                }
            return SwaggerError(.authentication, "\(ended) Run `\(loginCommand(account))`.")
        case .noStoredToken(let record):
            return SwaggerError(
                .authentication,
                "The session has no stored token. Run `\(loginCommand(record.account))`.")
        case .keyMissing(let record):
            return SwaggerError(
                .authentication,
                "The token store lacks the DPoP key of \(record.name)'s tokens. Run `\(loginCommand(record.account))`.")
        case .clientRefused(let server, let client):
            return SwaggerError(
                .authentication,
                "\(server) refused the client \(client.value): check its id and its credentials. Nothing was stored.")
        case .sessionGone(let account):
            return SwaggerError(
                .authentication,
                "Another swaggerctl logged out of this session, or found it ended. Run `\(loginCommand(account))`.")
        case .expiredWithoutRefreshToken(let record):
            return SwaggerError(
                .authentication,
                "The access token has expired, and the server gave no refresh token. Run `\(loginCommand(record.account))`."
            )
        case .undescribed(let server):
            return SwaggerError(
                .usage,
                "swaggerctl has no description of \(server). Describe it with `swaggerctl server set \(server)`, "
                    + "or log in again.")
        case .plainHTTPRefused(let server, let secret):
            let what =
                switch secret {
                case .password: "your password"
                case .tokens: "the tokens"
                case .environmentToken: "SWAGGERCTL_TOKEN"
                case .givenToken: "your token"
                }
            return SwaggerError(.usage, context.plainHTTPRefusal(sending: what, to: server))
        case .foreignOrigin(let server, let foreign, _):
            return SwaggerError(.usage, foreign.refusal(on: server))
        case .profileAfterLogin(let error, let record):
            let reason = error.rendered(
                on: record.server, account: record.name, description: record.serverDescription, in: context)
            return SwaggerError(
                reason.code,
                "Logged in, but the profile could not be fetched: \(reason.clause(naming: record.server))")
        case .deviceLoginEnded(let server, .denied):
            return SwaggerError(
                .authentication, "The sign-in to \(server) was refused in the browser; nothing was stored.")
        case .deviceLoginEnded(let server, .expired):
            return SwaggerError(
                .authentication,
                "The code for \(server) expired before the sign-in was finished; nothing was stored. Run the login "
                    + "again for a new code.")
        case .browserLoginEnded(let server, let ending):
            return ending.rendered(server)
        case .otherAccountSignedIn(_, let asked, let signedIn):
            return SwaggerError(
                .authentication,
                "\(signedIn) signed in, not \(asked); nothing was stored. Sign in as \(asked), or drop -e and -u.")
        case .tokenRefused(let server, let error):
            let status = if case .forbidden = error { "HTTP 403" } else { "HTTP 401" }
            return SwaggerError(
                .authentication,
                "\(server) refused the token (\(status)); nothing was stored. Check that it is one of this server's.")
        case .unknownAccountSignedIn(let server):
            return SwaggerError(
                .authentication,
                "\(server) did not say who signed in (no ID token, no name in the profile); nothing was stored. "
                    + "Name the account with -e or -u.")
        case .unusableProfile(let error, let account, let description):
            let detail = if case .notAProfile(let detail) = error { detail } else { "an answer that is not a profile" }
            let shown = description.profile.request.address
            let address = RequestTemplate.relative(shown, to: ServerURL(originOf: account.server.url))
            return SwaggerError(
                .server,
                "The profile at \(TerminalText.cut(address, to: 40)) is not usable "
                    + "(\(TerminalText.cut(detail, to: 40))); nothing was stored. Set it with `server set --profile-path`."
            )
        case .notStored(_, let error):
            // The store's own words say which store, and what to do about it.
            return error
        case .renewalNotWritable(_, let error):
            return SwaggerError(
                error.code,
                "The session was not renewed, and is as it was: \(error.message)")
        case .renewedButNotStored(_, let error):
            return SwaggerError(
                error.code,
                "The new tokens could not be stored; log in again: \(error.message)")
        case .tokensNotRemoved(_, let error):
            return SwaggerError(error.code, "\(error.message) `logout --local` forgets the session without it.")
        case .notRemoved(_, let error, let revoked):
            guard revoked else { return error }
            return SwaggerError(
                error.code,
                "The server ended the session, but it could not be removed here: \(error.message)")
        }
    }
}

extension SessionFailure.BrowserEnding {
    fileprivate func rendered(_ server: ServerURL) -> SwaggerError {
        let said = { (text: String?) in text.map { ": \(TerminalText.quoted($0))" } ?? "" }
        switch self {
        case .denied(let description):
            return SwaggerError(
                .authentication,
                "The sign-in to \(server) was refused in the browser\(said(description)); nothing was stored.")
        case .refused(let code, let description):
            return SwaggerError(
                .authentication,
                "\(server) ended the sign-in with \(TerminalText.quoted(code))\(said(description)); nothing was stored. Check the "
                    + "client id and scope.")
        case .noCode:
            return SwaggerError(
                .authentication, "The browser's answer from \(server) had no code; nothing was stored. Log in again.")
        case .timedOut(let wait):
            return SwaggerError(
                .network,
                "No answer came from the browser within \(wait.secondsText); nothing was stored. Log in again, or allow "
                    + "longer with --browser-timeout.")
        }
    }
}
