import FoundationEssentials

extension APIServiceError {
    /// What happened, on which server, and what to do next. `description` is the server's, which says what a person
    /// can check.
    package func rendered(
        on server: ServerURL, account: String?, description: ServerDescription?, in context: MessageContext
    ) -> SwaggerError {
        let login = server.loginCommand(as: account, description)
        switch self {
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
                "\(server) refused the request (HTTP \(status))\(reason). Check \(ServerDescription.checks(description))."
            )
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
                "\(server) did not answer within \(context.timeout.secondsText). Try again, or allow longer with "
                    + "SWAGGERCTL_TIMEOUT.")
        case .elsewhere(let origin, let failure):
            return failure.rendered(on: origin, account: account, description: description, in: context)
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
                    "its certificate expired \(RelativeTime.stamp(date, now: context.now)). Its operator must renew it"
                case .notYetValid(let date):
                    "its certificate is not valid until \(RelativeTime.stamp(date, now: context.now)). Check this "
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
}

extension ServerDescription {
    /// What a person can check when the server refuses one of a session's requests: what the description sends
    /// that the server may not know.
    fileprivate static func checks(_ description: ServerDescription?) -> String {
        guard let description else { return "the server URL" }
        if description.login.request?.inputs.contains("app_id") == true { return "the server URL and the app id" }
        if description.clientID != nil || description.login.isPasswordGrant {
            return "the server URL, the client id and the scope"
        }
        return "the server URL, and what `swaggerctl server show` says is sent"
    }
}
