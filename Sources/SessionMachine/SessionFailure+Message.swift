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
        let again = { (why: String, account: Account) in Self.loginAgain(why, account, as: record) }
        switch self {
        case .requestFailed(let error, let server, let email, let description):
            return error.rendered(on: server, account: email, description: description, in: context)
        case .renewalRefused(let renewed, let status, let said):
            return Self.renewalRefused(status: status, said: said, login: Self.login(renewed.account, as: record))
        case .environmentTokenRejected(let server): return SwaggerError(.authentication, Self.rejected(on: server))
        case .environmentTokenExpired: return SwaggerError(.authentication, Self.environmentTokenExpired)
        case .sessionEnded(let account, let reason): return again(Self.ended(because: reason), account)
        case .noStoredToken(let record): return again(Self.noStoredToken(in: record.backend), record.account)
        case .keyMissing(let record):
            return again("The token store lacks the DPoP key of \(record.name)'s tokens.", record.account)
        case .sessionGone(let account):
            return again("Another swaggerctl logged out of this session, or found it ended.", account)
        case .expiredWithoutRefreshToken(let record):
            return again("The access token has expired, and the server gave no refresh token.", record.account)
        case .undescribed(let server): return SwaggerError(.usage, Self.undescribed(server))
        case .plainHTTPRefused(let server, let secret):
            return SwaggerError(.usage, context.plainHTTPRefusal(sending: secret.spoken, to: server))
        case .foreignOrigin(let server, let foreign, _): return SwaggerError(.usage, foreign.refusal(on: server))
        case .profileAfterLogin(let error, let record): return Self.profileNotFetched(error, record, in: context)
        case .clientRefused(let server, let client): return SwaggerError(.authentication, Self.refused(client, server))
        case .deviceLoginEnded(let server, let ending): return SwaggerError(.authentication, ending.said(server))
        case .browserLoginEnded(let server, let ending): return ending.rendered(server)
        case .otherAccountSignedIn(_, let asked, let signedIn):
            return SwaggerError(.authentication, Self.otherAccount(asked: asked, signedIn: signedIn))
        case .tokenRefused(let server, let error): return SwaggerError(.authentication, Self.refused(error, server))
        case .unknownAccountSignedIn(let server): return SwaggerError(.authentication, Self.noAccount(server))
        case .unusableProfile(let error, let account, let description):
            return SwaggerError(.server, Self.unusable(error, account, description))
        // The store's own words say which store, and what to do about it.
        case .notStored(_, let error): return error
        case .renewalNotWritable(_, let error): return error.after("The session was not renewed, and is as it was:")
        case .renewedButNotStored(_, let error): return error.after("The new tokens could not be stored; log in again:")
        case .tokensNotRemoved(_, let error):
            return SwaggerError(error.code, "\(error.message) `logout --local` forgets the session without it.")
        case .notRemoved(_, let error, let revoked):
            return revoked ? error.after("The server ended the session, but it could not be removed here:") : error
        }
    }
}

// MARK: - A session that cannot be used

extension SessionFailure {
    /// The login that signs `account` in again: as a client when `record`, the session that failed, is a client's.
    fileprivate static func login(_ account: Account, as record: SessionRecord?) -> String {
        record?.isClient == true && record?.account == account ? account.clientLoginCommand : account.loginCommand
    }

    fileprivate static func loginAgain(_ why: String, _ account: Account, as record: SessionRecord?) -> SwaggerError {
        SwaggerError(.authentication, "\(why) Run `\(login(account, as: record))`.")
    }

    fileprivate static func noStoredToken(in backend: BackendKind) -> String {
        backend == .kernel
            ? "The kernel keyring has dropped this session (after a reboot, or days unused)."
            : "The session has no stored token."
    }

    fileprivate static func ended(because reason: APIServiceError) -> String {
        if case .forbidden(let message?) = reason {
            "The server ended the session (HTTP 403): \(TerminalText.quoted(message))."
        } else if case .requestRejected(410, _) = reason {
            "The server ended the session (HTTP 410 Gone); it is removed here."
        } else {
            "The session has ended: the server refuses it."
        }
    }

    fileprivate static func renewalRefused(status: Int, said: String?, login: String) -> SwaggerError {
        let reason = said.map { ": \(TerminalText.quoted($0))" } ?? ""
        return SwaggerError(
            .failure, "Renewal refused (HTTP \(status))\(reason); the session is kept. Log in again: `\(login)`.")
    }

    fileprivate static func rejected(on server: ServerURL) -> String {
        "\(server) rejected SWAGGERCTL_TOKEN: it has expired or been revoked. Set a valid token, or unset it to use "
            + "the stored session."
    }

    fileprivate static let environmentTokenExpired =
        "SWAGGERCTL_TOKEN has expired, and swaggerctl cannot renew a token it did not store. Set a fresh token, or "
        + "unset it to use the stored session."

    fileprivate static func undescribed(_ server: ServerURL) -> String {
        "swaggerctl has no description of \(server). Describe it with `swaggerctl server set \(server)`, or log in "
            + "again."
    }
}

// MARK: - A login that stored nothing

extension SessionFailure {
    fileprivate static func profileNotFetched(
        _ error: APIServiceError, _ record: SessionRecord, in context: MessageContext
    ) -> SwaggerError {
        let reason = error.rendered(
            on: record.server, account: record.name, description: record.serverDescription, in: context)
        return SwaggerError(
            reason.code, "Logged in, but the profile could not be fetched: \(reason.clause(naming: record.server))")
    }

    fileprivate static func refused(_ client: AccountName, _ server: ServerURL) -> String {
        "\(server) refused the client \(client.value): check its id and its credentials. Nothing was stored."
    }

    fileprivate static func refused(_ error: APIServiceError, _ server: ServerURL) -> String {
        let status = if case .forbidden = error { "HTTP 403" } else { "HTTP 401" }
        return "\(server) refused the token (\(status)); nothing was stored. Check that it is one of this server's."
    }

    fileprivate static func otherAccount(asked: String, signedIn: String) -> String {
        "\(signedIn) signed in, not \(asked); nothing was stored. Sign in as \(asked), or drop -e and -u."
    }

    fileprivate static func noAccount(_ server: ServerURL) -> String {
        "\(server) did not say who signed in (no ID token, no name in the profile); nothing was stored. Name the "
            + "account with -e or -u."
    }

    fileprivate static func unusable(
        _ error: APIServiceError, _ account: Account, _ description: ServerDescription
    ) -> String {
        let detail = if case .notAProfile(let detail) = error { detail } else { "an answer that is not a profile" }
        let address = RequestTemplate.relative(
            description.profile.request.address, to: ServerURL(originOf: account.server.url))
        return
            "The profile at \(TerminalText.cut(address, to: 40)) is not usable (\(TerminalText.cut(detail, to: 40))); "
            + "nothing was stored. Set it with `server set --profile-path`."
    }
}

extension SessionFailure.Secret {
    /// The secret as a refusal names it.
    fileprivate var spoken: String {
        switch self {
        case .password: "your password"
        case .tokens: "the tokens"
        case .environmentToken: "SWAGGERCTL_TOKEN"
        case .givenToken: "your token"
        }
    }
}

extension SessionFailure.DeviceEnding {
    fileprivate func said(_ server: ServerURL) -> String {
        switch self {
        case .denied: "The sign-in to \(server) was refused in the browser; nothing was stored."
        case .expired:
            "The code for \(server) expired before the sign-in was finished; nothing was stored. Run the login again "
                + "for a new code."
        }
    }
}

extension SwaggerError {
    /// The store's error, after what it meant for the session.
    fileprivate func after(_ meaning: String) -> SwaggerError { SwaggerError(code, "\(meaning) \(message)") }
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
