import FoundationEssentials
import SessionMachine
import SwaggerModel
import SwaggerOutput
import SwaggerServers

/// The words for everything that goes wrong: one sentence that says what happened, to which session, and what
/// to do next. Server text is quoted, and every line is sanitised where it is printed.
package struct Messages: Sendable {
    /// The request timeout, which a timeout's message names.
    package var timeout: Duration
    /// The current time, for certificate dates.
    package var now: Date
    /// The proxies, which a refusal of plain HTTP to this machine names.
    package var proxies: ProxySettings

    package init(timeout: Duration, now: Date, proxies: ProxySettings = ProxySettings()) {
        self.timeout = timeout
        self.now = now
        self.proxies = proxies
    }

    /// The error for a flow that stopped, for a session whose record names `backend`: a session whose key the
    /// kernel keyring dropped by itself (at a reboot, or when its keyring expired) is told so, since nothing the
    /// person did removed it.
    package func error(_ failure: SessionFailure, keptIn backend: BackendKind?) -> SwaggerError {
        guard case .noStoredToken(let account) = failure, backend == .kernel else { return error(failure) }
        return SwaggerError(
            .authentication,
            "The kernel keyring has dropped this session (after a reboot, or days unused). Run "
                + "`\(Self.login(account))`.")
    }

    /// The error for a flow that stopped.
    package func error(_ failure: SessionFailure) -> SwaggerError {
        switch failure {
        case .requestFailed(let error, let server, let email, let description):
            return self.error(error, on: server, account: email, description: description)
        case .renewalRefused(let record, let status, let said):
            let reason = said.map { ": \(TerminalText.quoted($0))" } ?? ""
            return SwaggerError(
                .failure,
                "Renewal refused (HTTP \(status))\(reason); the session is kept. Log in again: "
                    + "`\(Self.login(record.account))`.")
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
                    "The session has ended: the server no longer accepts it."
                }
            return SwaggerError(.authentication, "\(ended) Run `\(Self.login(account))`.")
        case .noStoredToken(let account):
            return SwaggerError(
                .authentication,
                "The session has no stored token. Run `\(Self.login(account))`.")
        case .sessionGone(let account):
            return SwaggerError(
                .authentication,
                "Another swaggerctl logged out of this session, or found it ended. Run `\(Self.login(account))`.")
        case .expiredWithoutRefreshToken(let account):
            return SwaggerError(
                .authentication,
                "The access token has expired, and the server gave no refresh token. Run `\(Self.login(account))`.")
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
                }
            return SwaggerError(.usage, plainHTTPRefusal(sending: what, to: server))
        case .foreignOrigin(let server, let foreign, _):
            return SwaggerError(.usage, Self.foreignOrigin(server, foreign))
        case .profileAfterLogin(let error, let record):
            let reason = self.error(
                error, on: record.server, account: record.name, description: record.serverDescription)
            return SwaggerError(
                reason.code,
                "Logged in, but the profile could not be fetched: \(Self.reason(reason.message, record.server))")
        case .deviceLoginEnded(let server, .denied):
            return SwaggerError(
                .authentication, "The sign-in to \(server) was refused in the browser; nothing was stored.")
        case .deviceLoginEnded(let server, .expired):
            return SwaggerError(
                .authentication,
                "The code for \(server) expired before the sign-in was finished; nothing was stored. Run the login "
                    + "again for a new code.")
        case .browserLoginEnded(let server, let ending):
            return Self.browserLoginEnded(server, ending)
        case .otherAccountSignedIn(_, let asked, let signedIn):
            return SwaggerError(
                .authentication,
                "\(signedIn) signed in, not \(asked); nothing was stored. Sign in as \(asked), or drop -e and -u.")
        case .unknownAccountSignedIn(let server):
            return SwaggerError(
                .authentication,
                "\(server) did not say who signed in (no ID token, no name in the profile); nothing was stored. "
                    + "Name the account with -e or -u.")
        case .unusableProfile(let error, let account, let description):
            let detail = if case .notAProfile(let detail) = error { detail } else { "an answer that is not a profile" }
            let url = description.profile.url
            let address = account.server.isSameOrigin(url) ? url.pathAndQuery : url.absoluteString
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
        case .notRemoved(_, let error, let revoked):
            guard revoked else { return error }
            return SwaggerError(
                error.code,
                "The server ended the session, but it could not be removed here: \(error.message)")
        }
    }

    /// The error for a failed request: what happened, on which server, and what to do next. `description` is the
    /// server's, which says what a person can check.
    package func error(
        _ error: APIServiceError, on server: ServerURL, account: String?, description: ServerDescription?
    )
        -> SwaggerError
    {
        let login = Self.login(server, account ?? "you@example.com")
        switch error {
        case .badCredentials(let status, let said?):
            // The server knows better than a canned guess: a locked account, a disabled user.
            return SwaggerError(
                .authentication,
                "\(server) refused the login (HTTP \(status)): \(TerminalText.quoted(said)). Check the account and password."
            )
        case .badCredentials(_, nil):
            return SwaggerError(
                .authentication,
                "Wrong \(account.map { $0.contains("@") } == false ? "user name" : "e-mail") or password for "
                    + "\(account ?? "that account") on \(server). Check both and try again.")
        case .forbidden(let said):
            return SwaggerError(
                .authentication,
                "The server refused the token (HTTP 403)\(said.map { ": \(TerminalText.quoted($0))" } ?? ""). Run `\(login)`."
            )
        case .tokenRejected, .refreshRejected:
            return SwaggerError(
                .authentication,
                "\(server) rejected the stored token (expired or revoked). Run `\(login)`.")
        case .requestRejected(let status, let said) where status == 404 || status == 405:
            // Nothing there to answer: the URL is wrong, not the app id or the credentials.
            let reason = said.map { ": \(TerminalText.quoted($0))" } ?? ""
            return SwaggerError(
                .failure,
                "\(server) has nothing there (HTTP \(status))\(reason). Check the base URL and what `server show` "
                    + "lists.")
        case .serverFailed(501):
            return SwaggerError(
                .failure,
                "\(server) does not implement this request (HTTP 501). Check that the URL is the API's base URL, such "
                    + "as https://host/api.")
        case .requestRejected(let status, let said):
            let reason = said.map { ": \(TerminalText.quoted($0))" } ?? " without saying why"
            return SwaggerError(
                .failure,
                "\(server) refused the request (HTTP \(status))\(reason). Check \(Self.checks(description)).")
        case .redirected(let status, let location):
            return SwaggerError(
                .failure,
                "\(server) redirected (HTTP \(status)) to \(location.map { TerminalText.cut($0, to: 30) } ?? "another address"); "
                    + "credentials do not follow. Use the final URL.")
        case .serverFailed(429):
            return SwaggerError(
                .server, "\(server) is too busy (HTTP 429) and still was after three attempts. Try again later.")
        case .serverFailed(let status):
            return SwaggerError(.server, "\(server) failed (HTTP \(status)). Try again later.")
        case .notAProfile(let detail):
            return SwaggerError(
                .server,
                "\(server) did not answer with a profile (\(TerminalText.cut(detail, to: 40))). Check the URL, or the profile's "
                    + "address (--profile-path).")
        case .contractViolation(let detail):
            return SwaggerError(
                .server,
                "\(server) does not answer as the API (\(TerminalText.cut(detail, to: 64))). Check the URL.")
        case .notHTTP:
            return SwaggerError(
                .server,
                "\(server) does not answer as the API (it did not answer in HTTP; check the URL's scheme and port). "
                    + "Check the URL.")
        case .unreachable(let detail):
            return SwaggerError(
                .network, "Could not reach \(server): \(detail). Check the URL and that the server is up.")
        case .timedOut:
            return SwaggerError(
                .network,
                "\(server) did not answer within \(timeout.secondsText). Try again, or allow longer with "
                    + "SWAGGERCTL_TIMEOUT.")
        case .elsewhere(let origin, let failure):
            return self.error(failure, on: origin, account: account, description: description)
        case .proxyFailed(let proxy, .unreachable(let detail)):
            return SwaggerError(
                .network,
                "Could not reach the proxy \(proxy): \(detail). Check https_proxy, or add "
                    + "\(server.url.host(percentEncoded: false) ?? "the host") to no_proxy.")
        case .proxyFailed(let proxy, .authenticationRequired):
            return SwaggerError(
                .network,
                "The proxy \(proxy) wants a user name and password (HTTP 407). Put them in its URL: "
                    + "http://user:password@host:port.")
        case .proxyFailed(let proxy, .refused):
            return SwaggerError(
                .network,
                "The proxy \(proxy) would not connect to \(server.hostAndPort). Check its rules, or add the host to "
                    + "no_proxy.")
        case .requestTooLarge(let limit):
            return SwaggerError(
                .usage,
                "The request body is larger than \(limit >> 20) MiB, the most swaggerctl sends; nothing was sent.")
        case .tokenNotBound(let type):
            return SwaggerError(
                .failure,
                "\(server) answered a DPoP proof with a \(TerminalText.quoted(String(type.prefix(20)))) token, "
                    + "not bound to the key. Log in without --dpop.")
        case .clientKeyUnusable:
            return SwaggerError(
                .usage,
                "The client's key cannot sign: it must be an EC P-256 or P-384, RSA or Ed25519 private key in PEM. "
                    + "Log in again with another --client-key.")
        case .tls(.unloadableTrustStore(let path)):
            return SwaggerError(
                .usage,
                "\(path) holds no PEM certificate that can be loaded. Point SSL_CERT_FILE, --ca-cert or "
                    + "SWAGGERCTL_CA_CERT at a PEM file.")
        case .tls(let failure):
            let host = server.hostAndPort
            let reason =
                switch failure {
                case .untrusted:
                    "its certificate is not trusted. For a private CA, pass its certificate with --ca-cert FILE"
                case .expired(let date):
                    "its certificate expired \(SessionStatus.format(date, now: now)). Its operator must renew it"
                case .notYetValid(let date):
                    "its certificate is not valid until \(SessionStatus.format(date, now: now)). Check this "
                        + "machine's clock"
                case .wrongHost:
                    "its certificate is for another host name. Use the name that the certificate gives"
                case .noCommonProtocol:
                    "it shares no TLS version or cipher with swaggerctl (TLS 1.2 or newer). Check its TLS settings"
                case .notTLS:
                    "it does not speak TLS on that port. Check the URL's scheme (http or https) and port"
                case .handshakeFailed, .unloadableTrustStore:
                    "the TLS handshake failed. Check the URL and the server's certificate"
                }
            return SwaggerError(.network, "The TLS connection to \(host) failed: \(reason).")
        }
    }

    /// The line for something that went wrong in a logout that went on all the same.
    package func warning(_ warning: LogoutCoordinator.Warning) -> String {
        switch warning {
        case .serverCannotRevoke(let server):
            "\(server) cannot revoke sessions, so its tokens stay valid there until they expire; --local skips "
                + "this."
        case .tokensUnreadable(let error, _):
            "logged out here, but the server was not told: \(error.message)"
        case .plainHTTPRefused(_, let to):
            "logged out here, but the server was not told: plain HTTP to \(to.hostAndPort) is refused "
                + "(SWAGGERCTL_ALLOW_HTTP=1 allows it)."
        case .foreignOrigin(let account, let foreign):
            "logged out here, but \(account.server) was not told: its \(foreign.step) is on \(foreign.origin), "
                + "not allowed."
        case .revocationFailed(let error, let server, let description):
            "logged out here, but the server was not told: "
                + Self.reason(self.error(error, on: server, account: nil, description: description).message, server)
        case .undescribed(let server):
            "logged out here, but the server was not told: swaggerctl has no description of \(server) any more."
        }
    }

    /// `message` without its server's name in front, for a line that names the server already: "Could not reach S: x."
    /// and "S refused …" become "could not reach it: x." and "it refused …".
    static func reason(_ message: String, _ server: ServerURL) -> String {
        let named = message.replacing("\(server)", with: "it")
        return named.prefix(1).lowercased() + named.dropFirst()
    }

    /// The error for a logout that removed the session here, but that the server could have ended and did not.
    package func failure(_ warning: LogoutCoordinator.Warning) -> String {
        let line = self.warning(warning)
        return line.prefix(1).uppercased() + line.dropFirst()
    }

    /// What a person can check when the server refuses one of a session's requests: what the description sends
    /// that the server may not know.
    static func checks(_ description: ServerDescription?) -> String {
        guard let description else { return "the server URL" }
        if description.login.appID != nil { return "the server URL and the app id" }
        if description.clientID != nil || description.login.isPasswordGrant {
            return "the server URL, the client id and the scope"
        }
        return "the server URL, and what `swaggerctl server show` says is sent"
    }

    /// What discovery found, in a line, and a line for each step that had several candidates, naming the flag
    /// that picks another: `Found in /api/schema/: login POST /token/ (with provider=db), refresh POST
    /// /token/refresh/, logout POST /token/blacklist/, profile GET /users/me/, token as Authorization: Token.` A document on the
    /// server's host is named by its path, and the first of several stands for them all, so that the line fits
    /// two lines of a terminal; `-v` shows every request. A part that the person gave, or that a preset says, is
    /// not credited to the documents. Empty when no document was read, and when the document showed the server to
    /// be a preset's, with nothing chosen among others: it is the server that preset describes, which `server show`
    /// says whole.
    package static func discovery(_ choice: SessionController.ServerChoice) -> [String] {
        guard let finding = choice.finding, !finding.documents.isEmpty else { return [] }
        if finding.layer?.json[path: "preset"] != nil, finding.described?.contested.isEmpty ?? true { return [] }
        let description = choice.serverDescription
        let documents = finding.documents.map(\.absoluteString)
        /// Whether `part` came from the documents.
        func found(_ part: String) -> Bool {
            guard let source = choice.sources[part] else { return false }
            return documents.contains(where: source.contains)
        }
        func address(_ url: URL) -> String {
            // On the server's host, its path says where; anywhere else, the whole URL, host and all.
            choice.server.isSameOrigin(url) ? url.pathAndQuery : url.absoluteString
        }
        // A document outside the path the person typed (the origin's /.well-known/, one a catalog names) says so,
        // unless the person named it.
        let givenDocument = choice.sources["document"] == "given"
        let named = finding.documents.map { url in
            givenDocument || url.absoluteString.hasPrefix(choice.server.string + "/")
                ? address(url) : "\(address(url)) (outside \(choice.server))"
        }
        var steps: [String] = []
        if found("login") {
            let login = description.login
            let members = login.members.keys.sorted().filter { $0 != "grant_type" }.map { name in
                "\(name)=\(login.members[name].map(Self.memberText) ?? "")"
            }
            steps.append(
                "login POST \(address(login.url))"
                    + (members.isEmpty ? "" : " (with \(members.joined(separator: ", ")))"))
        }
        if found("refresh") {
            steps.append(description.refresh.map { "refresh POST \(address($0.url))" } ?? "no refresh")
        }
        if found("revocation") {
            steps.append(
                description.revocation.map { revocation in
                    let method = if case .bearer(let method) = revocation.shape { method } else { "POST" }
                    return "logout \(method) \(address(revocation.url))"
                } ?? "no logout")
        }
        if found("profile") { steps.append("profile GET \(address(description.profile.url))") }
        if found("token"), description.token != .bearer { steps.append("token as \(description.token.text)") }
        let given = ["login", "refresh", "revocation", "profile"].filter { choice.sources[$0] == "given" }
        let others = given.isEmpty ? "" : "; \(given.joined(separator: ", ")) given"
        let sources = named.count > 1 ? "\(named[0]) (and \(named.count - 1) more)" : named[0]
        let nothingUsed = "nothing that was used"
        var lines = [
            "Found in \(sources): \(steps.isEmpty ? nothingUsed : steps.joined(separator: ", "))\(others)."
        ]
        // A choice that a flag overrode is not worth a line.
        for contest in finding.described?.contested ?? [] where !given.contains(Self.part(of: contest.step)) {
            lines.append(
                "For the \(contest.step), chose \(contest.chosen) over \(contest.others.prefix(3).joined(separator: ", "))"
                    + "\(contest.others.count > 3 ? " and \(contest.others.count - 3) more" : ""); choose another with "
                    + "`swaggerctl server set \(choice.server) \(contest.flag) PATH`.")
        }
        return lines
    }

    /// The description language's part that a discovery step is.
    private static func part(of step: String) -> String {
        step == "logout" ? "revocation" : step
    }

    /// A member's value as a person would write it.
    private static func memberText(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }

    /// No document that the server publishes describes a login that swaggerctl can send.
    static func nothingDescribed(_ server: ServerURL, _ lacking: [String]) -> SwaggerError {
        SwaggerError(
            .usage,
            "No login found for \(server): \(lacking.first ?? "")\(lacking.count > 1 ? " and more" : ""). Describe it "
                + "with `swaggerctl server set`.")
    }

    /// A server that nothing describes: no document, metadata or known login, so nothing was sent, and the password
    /// is not asked for.
    static func undescribedServer(_ server: ServerURL, asked: Int, suggestion: URL?) -> SwaggerError {
        let what = "Nothing at \(server) says how to log in (\(asked) addresses asked; nothing sent)."
        guard let suggestion else {
            return SwaggerError(.usage, "\(what) Check the URL, or `swaggerctl server set URL --preset NAME`.")
        }
        return SwaggerError(.usage, "\(what) Did you mean \(suggestion.absoluteString)?")
    }

    /// A server whose OpenAPI document was not found where it names one, nor where the frameworks publish theirs.
    static func noDocument(_ server: ServerURL) -> SwaggerError {
        SwaggerError(
            .failure,
            "No OpenAPI document found on \(server). Name it with `swaggerctl server set --openapi URL`, or give "
                + "a path.")
    }

    /// An operation name that the server's document does not have.
    package static func noOperation(_ name: String, on server: ServerURL, nearest: [String]) -> SwaggerError {
        let near = nearest.isEmpty ? "" : " Did you mean \(nearest.joined(separator: " or "))?"
        return SwaggerError(
            .usage,
            "\(server)'s document has no operation \(TerminalText.quoted(String(name.prefix(60))))."
                + "\(near) `swaggerctl operations` lists them.")
    }

    /// A document asked for again that is gone, or no longer an OpenAPI document.
    static func unreadableDocument(_ url: URL) -> SwaggerError {
        SwaggerError(
            .server,
            "\(url.absoluteString.prefix(200)) is no longer an OpenAPI document swaggerctl can read; "
                + "the copy kept before is unchanged.")
    }

    /// The one-time code of a device-code login, and where to enter it.
    package static func deviceCode(_ code: DeviceAuthorization, opened: Bool) -> String {
        let complete = code.verificationURIComplete.map { " (or open \($0.absoluteString), which has the code in it)" }
        return "To sign in, open \(code.verificationURI.absoluteString) and enter the code \(code.userCode)"
            + "\(complete ?? "")\(opened ? "; it is open in your browser" : ""). Waiting for the sign-in…"
    }

    /// A login that names no way to sign in, to a server that offers no password grant.
    package static func signInChosen(_ server: ServerURL, _ chosen: SignIn, hasBrowser: Bool) -> String {
        switch chosen {
        case .password, .client: ""
        case .web:
            "\(server) does not offer the password grant; signing in in the browser instead (--web). With --device, "
                + "you sign in with a code in a browser anywhere."
        case .device:
            "\(server) does not offer the password grant; signing in with a code instead (--device)"
                + "\(hasBrowser ? "" : ", since there is no browser here"). With --web, the browser signs in here."
        }
    }

    /// Where a browser login signs in: always printed, for a browser on another machine.
    package static func browserAddress(_ url: URL, opened: Bool) -> String {
        "\(opened ? "Opened your browser to sign in. If it did not open, go to" : "To sign in, open") "
            + "\(url.absoluteString) in a browser on this machine. Waiting for the sign-in…"
    }

    /// `login --web` to a server without an authorization endpoint, or without a client id to ask it for.
    package static func noBrowserLogin(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        guard description.authorizationURL != nil else {
            return SwaggerError(
                .usage,
                "\(server) names no authorization endpoint, so --web cannot be used. Log in with the password, or "
                    + "use `server set --preset oauth2`.")
        }
        return SwaggerError(
            .usage,
            "--web needs the client id that the server knows this tool by; give it with `swaggerctl server set "
                + "\(server) --client-id ID`.")
    }

    /// `login --device` to a server that names no device authorization endpoint.
    package static func noDeviceAuthorization(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        SwaggerError(
            .usage,
            "\(server) names no device authorization endpoint, so --device cannot be used; log in with the password "
                + "instead.")
    }

    /// A login with a password to a server whose metadata offers no password grant and no other way swaggerctl
    /// can sign in.
    package static func noPasswordGrant(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        let flags = description.browserSignIns.map { $0 == .web ? "--web" : "--device" }
        let instead =
            flags.isEmpty
            ? "nor a browser sign-in that swaggerctl can use"
            : "sign in with \(flags.joined(separator: " or ")) instead"
        return SwaggerError(
            .usage,
            "\(server) does not take passwords (no password grant); \(instead). Nothing was sent.")
    }

    static func browserLoginEnded(_ server: ServerURL, _ ending: SessionFailure.BrowserEnding) -> SwaggerError {
        let said = { (text: String?) in text.map { ": \(TerminalText.quoted($0))" } ?? "" }
        switch ending {
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

    /// A request to the login's redirect after the one that was taken.
    static let browserWrongState =
        "a request to the login's address without this login's state was turned away; still waiting for the browser."

    static let browserLatecomer =
        "another answer came to the login's address after the browser's was taken; it was turned away."

    /// The page the browser shows after it hands the login back.
    package static func browserPage(_ page: BrowserFlow.Page) -> String {
        switch page {
        case .signedIn: "Signed in. You can close this tab and return to the terminal."
        case .refused: "The sign-in was refused. Return to the terminal."
        case .failed: "This answer was not taken. Return to the terminal."
        case .alreadyAnswered: "This sign-in was already answered. Return to the terminal."
        }
    }

    /// What a login asks for when no account was given: an e-mail where the server's login takes one, else a
    /// user name.
    package static func accountPrompt(_ login: LoginStep) -> (prompt: String, cancelled: String, isEmail: Bool) {
        login.account.lowercased() == "email" || login.email != nil
            ? ("E-mail: ", "Login cancelled: no e-mail given.", true)
            : ("User name: ", "Login cancelled: no user name given.", false)
    }

    /// The command that logs in again.
    /// The login command for the account `name`: `-e` for an e-mail, `-u` for a user name.
    package static func login(_ server: ServerURL, _ name: String) -> String {
        "swaggerctl login -s \(server) \(name.contains("@") ? "-e" : "-u") \(name)"
    }

    static func login(_ account: Account) -> String {
        login(account.server, account.name)
    }

    /// `token`, `exec` or `git-credential` of a session whose token is bound to a DPoP key.
    package static let boundToken =
        "the token is bound to this session's DPoP key: a request that carries it needs a proof signed with the key "
        + "(`swaggerctl api` makes them)."

    /// A client credentials login that the server refused.
    static func clientRefused(_ server: ServerURL, _ client: AccountName) -> SwaggerError {
        SwaggerError(
            .authentication,
            "\(server) refused the client \(client.value): check its id and its credentials. Nothing was stored.")
    }

    /// The account that became the active one on `server` when the active one's session was removed.
    package static func nowActive(_ name: String, on server: ServerURL) -> String {
        "\(name) is now the active account on \(server); `swaggerctl switch -s \(server)` picks another."
    }

    /// `a@x is`, or `a@x, b@x are`: who is logged in somewhere, to begin a clause.
    package static func accountsAre(_ emails: [String]) -> String {
        "\(emails.joined(separator: ", ")) \(emails.count == 1 ? "is" : "are")"
    }

    /// A step on another origin than the server's, refused before anything was sent.
    static func foreignOrigin(_ server: ServerURL, _ foreign: OriginRule.Foreign) -> String {
        "The \(foreign.step) is on \(foreign.origin), not \(server); nothing was sent. If you trust it: "
            + "--allow-origin \(foreign.origin)."
    }

    /// The line that says, at every login and whatever `-q` says, that secrets go to another host than the one
    /// named.
    package static func otherOrigins(_ server: ServerURL, _ origins: [ServerURL]) -> String {
        let list = origins.map(\.string).joined(separator: ", ")
        return "Signing in to \(server) through \(list), which you allowed (`swaggerctl server show \(server)`)."
    }

    /// The line the first use of a session says after a change of description moved its tokens to `origins`.
    package static func movedOrigins(_ server: ServerURL, _ origins: [ServerURL]) -> String {
        let list = origins.map(\.string).joined(separator: ", ")
        return "\(server)'s sessions now send tokens to \(list) too, as you allowed (`swaggerctl server show`)."
    }

    /// What a change of description would do to the sessions kept under its server, before it is saved.
    package static func tokenMove(_ move: SessionController.TokenMove) -> String {
        let list = move.origins.map(\.string).joined(separator: ", ")
        return "This sends the tokens of \(accountsOf(move.accounts)) on \(move.server) to \(list) too."
    }

    /// The refusal of a change that moves tokens, off a terminal, without `--yes`.
    package static func tokenMoveRefused(_ move: SessionController.TokenMove) -> SwaggerError {
        SwaggerError(.usage, tokenMove(move) + " Nothing was saved; add --yes if you trust it.")
    }

    private static func accountsOf(_ accounts: [String]) -> String {
        let others = accounts.count - 1
        return others == 0 ? accounts[0] : "\(accounts[0]) and \(others) other session\(others == 1 ? "" : "s")"
    }

    private func plainHTTPRefusal(sending what: String, to server: ServerURL) -> String {
        let allow = "set SWAGGERCTL_ALLOW_HTTP=1"
        // Only a proxy makes this machine's own address a refusal: the proxy reads what it carries.
        if server.isLoopback, let proxy = proxies.proxy(for: server) {
            return "Refusing to send \(what) over plain HTTP through the proxy \(proxy), which can read it. Add "
                + "\(server.url.host(percentEncoded: false) ?? "the host") to NO_PROXY, or \(allow)."
        }
        return "Refusing to send \(what) to \(server) over plain HTTP, which others can read. Use https://, or "
            + "\(allow)."
    }
}

extension SwaggerError {
    /// `status` found nothing stored and no `SWAGGERCTL_TOKEN`.
    package static let notLoggedInAnywhere = SwaggerError(
        .authentication, "Not logged in to any server. Run `swaggerctl login -s URL -e you@example.com`.")

    /// A command that uses a session, with no `-s`, no `SWAGGERCTL_SERVER`, and no server ever logged in to.
    package static let noServer = SwaggerError(
        .authentication, "No server named and none logged in to. Run `swaggerctl login -s URL -e you@example.com`.")

    /// `login` off a terminal, with no server named and none logged in to before.
    package static let loginWithoutServer = SwaggerError(
        .usage, "Which server? Give its URL with -s URL, or set SWAGGERCTL_SERVER.")

    /// `SWAGGERCTL_TOKEN` is set, and nothing says which server it is for.
    package static let tokenWithoutServer = SwaggerError(
        .usage, "SWAGGERCTL_TOKEN is set, but not its server. Give the server with -s URL, or set SWAGGERCTL_SERVER.")

    /// `token` found something that cannot be a token, so it prints nothing.
    package static let notAToken = SwaggerError(
        .server,
        "The stored access token has characters that no token has, so it is not printed. Log in again to replace it.")
}
