import FoundationEssentials

extension SessionController {
    /// The message for a flow that stopped: what happened, to which session, and what to do next.
    func message(for failure: MainCoordinator.Failure) -> SwaggerError {
        switch failure {
        case .request(let error, .stored(let record)):
            return message(for: error, on: record.server, email: record.email, kind: record.kind)
        case .request(let error, .environment(_, let server)):
            if error == .tokenRejected {
                return SwaggerError(
                    .authentication,
                    "\(server) rejected the token in SWAGGERCTL_TOKEN; it has expired or been revoked. Set a valid "
                        + "token, or unset SWAGGERCTL_TOKEN to use the stored session.")
            }
            return message(for: error, on: server, email: nil)
        case .unusableProfile(let error, let account, let dialect):
            let detail = if case .notAProfile(let detail) = error { detail } else { "\(error)" }
            let advice =
                if let dialect {
                    "The profile was read from \(dialect.profileURL); give its address with --profile-path."
                } else {
                    "Check that the server URL is the API's base URL, such as https://host/api."
                }
            return SwaggerError(
                .server,
                "Logged in to \(account.server) as \(account.email), but the profile it sent is not usable "
                    + "(\(detail)), so nothing was stored. \(advice)")
        case .profileAfterLogin(let error, let record):
            let reason = message(for: error, on: record.server, email: record.email, kind: record.kind)
            return SwaggerError(
                reason.code,
                "Logged in to \(record.server) as \(record.email), but the profile could not be fetched: "
                    + reason.message)
        case .sessionEnded(let record, let reason):
            let said = if case .forbidden(let message?) = reason { " (HTTP 403: \(Self.quoted(message)))" } else { "" }
            return SwaggerError(
                .authentication,
                "Your session for \(record.email) on \(record.server) has ended: the server no longer accepts "
                    + "it\(said). Run `\(Self.login(record.server, record.email))`.")
        case .noStoredToken(let record):
            return SwaggerError(
                .authentication,
                "The session for \(record.email) on \(record.server) has no stored token. "
                    + "Run `\(Self.login(record.server, record.email))` to log in again.")
        case .sessionGone(let account):
            return SwaggerError(
                .authentication,
                "\(account.email) is no longer logged in to \(account.server): another swaggerctl logged out or "
                    + "found the session ended. Run `\(Self.login(account.server, account.email))`.")
        case .expiredWithoutRefreshToken(let record):
            return SwaggerError(
                .authentication,
                "The access token for \(record.email) on \(record.server) has expired, and the server gave no "
                    + "refresh token to renew it. Run `\(Self.login(record.server, record.email))`.")
        case .environmentTokenExpired(let server):
            return SwaggerError(
                .authentication,
                "The token in SWAGGERCTL_TOKEN has expired, and swaggerctl cannot renew a token it did not store. "
                    + "Set a fresh token, or unset SWAGGERCTL_TOKEN to use the stored session for \(server).")
        }
    }

    /// The message for a failed API call: what happened, on which server, and what to do next.
    /// - Parameters:
    ///   - error: What went wrong.
    ///   - server: The API's base URL.
    ///   - email: The account involved, when there is one.
    ///   - kind: The kind of server, for the advice.
    /// - Returns: The error to show.
    func message(for error: APIServiceError, on server: String, email: String?, kind: ServerKind = .original)
        -> SwaggerError
    {
        let login = Self.login(server, email ?? "you@example.com")
        switch error {
        case .badCredentials(let status, let said?):
            // The server knows better than a canned guess: the app id, a locked account, a disabled user.
            return SwaggerError(
                .authentication, "\(server) refused the login (HTTP \(status)): \(Self.quoted(said)).")
        case .badCredentials(_, nil):
            return SwaggerError(
                .authentication,
                "Wrong e-mail or password for \(email ?? "that account") on \(server). Check both and try again.")
        case .forbidden(let said):
            return SwaggerError(
                .authentication,
                "\(server) refused the token for \(email ?? "that account") (HTTP 403)\(said.map { ": \(Self.quoted($0))" } ?? ""). "
                    + "Run `\(login)` to log in again.")
        case .tokenRejected, .refreshRejected:
            return SwaggerError(
                .authentication,
                "\(server) rejected the stored token for \(email ?? "that account"); it has expired or been "
                    + "revoked. Run `\(login)` to log in again.")
        case .requestRejected(let status, let said):
            let reason = said.map { ": \(Self.quoted($0))" } ?? ""
            let check =
                switch kind {
                case .original: "the server URL and the app id"
                case .identity: "the server URL and --login-path"
                case .oauth2: "the server URL, the client id and the scope"
                }
            return SwaggerError(
                .failure, "\(server) refused the request with HTTP \(status)\(reason). Check \(check).")
        case .redirected(let status, let location):
            return SwaggerError(
                .failure,
                "\(server) redirected (HTTP \(status)) to \(location ?? "another address"). swaggerctl does not "
                    + "follow redirects with credentials; pass the final API URL with --server.")
        case .serverFailed(429):
            return SwaggerError(
                .server, "\(server) is too busy (HTTP 429) and still was after three attempts. Try again later.")
        case .serverFailed(let status):
            return SwaggerError(.server, "\(server) failed with HTTP \(status). Try again later.")
        case .notAProfile(let detail):
            return SwaggerError(
                .server,
                "\(server) answered the profile request with something that is not a profile (\(detail)). Check "
                    + "the server URL, or the profile's address with --profile-path at login.")
        case .contractViolation(let detail):
            return SwaggerError(
                .server,
                "\(server) answered with something that is not the account API (\(detail)). Check that the "
                    + "server URL is the API's base URL, such as https://host/api.")
        case .unreachable(let detail):
            return SwaggerError(
                .network, "Could not reach \(server): \(detail). Check the URL and that the server is up.")
        case .timedOut:
            return SwaggerError(
                .network,
                "\(server) did not answer within \(configuration.timeout.secondsText). "
                    + "Try again, or allow longer with SWAGGERCTL_TIMEOUT.")
        case .tls(let failure):
            let host = ServerURL.hostAndPort(server)
            let reason =
                switch failure {
                case .untrusted:
                    "its certificate is not trusted. If \(host) uses a private certificate authority, pass that "
                        + "authority's certificate with --ca-cert FILE or SWAGGERCTL_CA_CERT"
                case .expired(let date):
                    "its certificate expired \(SessionStatus.format(date, now: Date())). Its operator must renew it"
                case .notYetValid(let date):
                    "its certificate is not valid until \(SessionStatus.format(date, now: Date())). Check this "
                        + "machine's clock"
                case .wrongHost:
                    "its certificate is for another host name. Use the name that the certificate gives"
                case .noCommonProtocol:
                    "it shares no TLS version or cipher with swaggerctl, which needs TLS 1.2 or newer. Check the "
                        + "server's TLS settings"
                case .notTLS:
                    "it does not speak TLS on that port. Check the URL's scheme (http or https) and port"
                case .handshakeFailed:
                    "the TLS handshake failed. Check the URL and the server's certificate"
                }
            return SwaggerError(.network, "The TLS connection to \(host) failed: \(reason).")
        }
    }

    /// The warning when logout removed the session here but could not end it on the server.
    func logoutWarning(for error: APIServiceError, on server: String) -> String {
        let reason = message(for: error, on: server, email: nil).message
        return "the session was removed from this machine, but \(server) could not be told to end it: \(reason)"
    }

    /// Server text in quotes: it stands out as the server's words, not swaggerctl's. Every line is sanitised
    /// when it is printed.
    static func quoted(_ text: String) -> String {
        "\"\(text)\""
    }

    /// The command that logs in again.
    static func login(_ server: String, _ email: String) -> String {
        "swaggerctl login -s \(server) -e \(email)"
    }
}
