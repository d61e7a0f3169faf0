import FoundationEssentials

extension APIServiceError {
    /// What happened, on which server, and what to do next. `description` is the server's, which says what a person
    /// can check.
    package func rendered(
        on server: ServerURL, account: String?, description: ServerDescription?, in context: MessageContext
    ) -> SwaggerError {
        let login = server.loginCommand(as: account, description)
        switch self {
        case .badCredentials(let status, let said):
            return SwaggerError(.authentication, Self.wrongLogin(status: status, said: said, account, on: server))
        case .forbidden(let said):
            return SwaggerError(
                .authentication, "The server refused the token (HTTP 403)\(said.saying). Run `\(login)`.")
        case .tokenRejected, .refreshRejected:
            return SwaggerError(
                .authentication, "\(server) rejected the stored token (expired or revoked). Run `\(login)`.")
        case .requestRejected(let status, let said):
            return SwaggerError(.failure, Self.refused(status: status, said: said, on: server, description))
        case .serverFailed(let status): return Self.failed(status: status, on: server)
        case .redirected(let status, let location):
            return SwaggerError(.failure, Self.redirected(status: status, to: location, on: server))
        case .notAProfile(let detail): return SwaggerError(.server, Self.notAProfile(detail, on: server))
        case .contractViolation(let detail):
            return SwaggerError(.server, Self.notTheAPI(server, "\(TerminalText.cut(detail, to: 64))"))
        case .notHTTP:
            return SwaggerError(
                .server, Self.notTheAPI(server, "it did not answer in HTTP; check the URL's scheme and port"))
        case .unreachable(let detail):
            return SwaggerError(
                .network, "Could not reach \(server): \(detail). Check the URL and that the server is up.")
        case .timedOut: return SwaggerError(.network, Self.timedOut(on: server, after: context.timeout))
        case .elsewhere(let origin, let failure):
            return failure.rendered(on: origin, account: account, description: description, in: context)
        case .proxyFailed(let proxy, let failure): return SwaggerError(.network, failure.said(proxy, on: server))
        case .requestTooLarge(let limit): return SwaggerError(.usage, Self.tooLarge(limit))
        case .tokenNotBound(let type): return SwaggerError(.failure, Self.notBound(type, on: server))
        case .clientKeyUnusable: return SwaggerError(.usage, Self.keyCannotSign)
        case .tls(let failure): return failure.rendered(on: server, now: context.now)
        }
    }
}

// MARK: - The server's answers

extension APIServiceError {
    fileprivate static func wrongLogin(status: Int, said: String?, _ account: String?, on server: ServerURL) -> String {
        // The server knows better than a canned guess: a locked account, a disabled user.
        if let said {
            return "\(server) refused the login (HTTP \(status)): \(TerminalText.quoted(said)). Check the account and "
                + "password."
        }
        return "Wrong \(account.map { $0.contains("@") } == false ? "user name" : "e-mail") or password for "
            + "\(account ?? "that account") on \(server). Check both and try again."
    }

    fileprivate static func refused(
        status: Int, said: String?, on server: ServerURL, _ description: ServerDescription?
    ) -> String {
        // Nothing there to answer: the URL is wrong, not the app id or the credentials.
        if status == 404 || status == 405 {
            return "\(server) has nothing there (HTTP \(status))\(said.saying). Check the base URL and what "
                + "`server show` lists."
        }
        let reason = said == nil ? " without saying why" : said.saying
        return
            "\(server) refused the request (HTTP \(status))\(reason). Check \(ServerDescription.checks(description))."
    }

    fileprivate static func failed(status: Int, on server: ServerURL) -> SwaggerError {
        switch status {
        case 501:
            SwaggerError(
                .failure,
                "\(server) does not implement this request (HTTP 501). Check that the URL is the API's base URL, such "
                    + "as https://host/api.")
        case 429:
            SwaggerError(
                .server, "\(server) is too busy (HTTP 429) and still was after three attempts. Try again later.")
        default: SwaggerError(.server, "\(server) failed (HTTP \(status)). Try again later.")
        }
    }

    fileprivate static func redirected(status: Int, to location: String?, on server: ServerURL) -> String {
        "\(server) redirected (HTTP \(status)) to \(location.map { TerminalText.cut($0, to: 30) } ?? "another address"); "
            + "credentials do not follow. Use the final URL."
    }

    fileprivate static func notAProfile(_ detail: String, on server: ServerURL) -> String {
        "\(server) did not answer with a profile (\(TerminalText.cut(detail, to: 40))). Check the URL, or the profile's "
            + "address (--profile-path)."
    }

    fileprivate static func notTheAPI(_ server: ServerURL, _ why: String) -> String {
        "\(server) does not answer as the API (\(why)). Check the URL."
    }

    fileprivate static func notBound(_ type: String, on server: ServerURL) -> String {
        "\(server) answered a DPoP proof with a \(TerminalText.quoted(String(type.prefix(20)))) token, not bound to the "
            + "key. Log in without --dpop."
    }
}

// MARK: - Before and on the way

extension APIServiceError {
    fileprivate static func timedOut(on server: ServerURL, after timeout: Duration) -> String {
        "\(server) did not answer within \(timeout.secondsText). Try again, or allow longer with SWAGGERCTL_TIMEOUT."
    }

    fileprivate static func tooLarge(_ limit: Int) -> String {
        "The request body is larger than \(limit >> 20) MiB, the most swaggerctl sends; nothing was sent."
    }

    fileprivate static let keyCannotSign =
        "The client's key cannot sign: it must be an EC P-256 or P-384, RSA or Ed25519 private key in PEM. Log in "
        + "again with another --client-key."
}

extension Optional<String> {
    /// What the server said, quoted after a colon, or nothing.
    fileprivate var saying: String { map { ": \(TerminalText.quoted($0))" } ?? "" }
}

extension ProxyFailure {
    fileprivate func said(_ proxy: String, on server: ServerURL) -> String {
        switch self {
        case .unreachable(let detail):
            "Could not reach the proxy \(proxy): \(detail). Check https_proxy, or add "
                + "\(server.url.host(percentEncoded: false) ?? "the host") to no_proxy."
        case .authenticationRequired:
            "The proxy \(proxy) wants a user name and password (HTTP 407). Put them in its URL: "
                + "http://user:password@host:port."
        case .refused:
            "The proxy \(proxy) would not connect to \(server.hostAndPort). Check its rules, or add the host to "
                + "no_proxy."
        }
    }
}

extension TLSFailure {
    fileprivate func rendered(on server: ServerURL, now: Date) -> SwaggerError {
        if case .unloadableTrustStore(let path) = self {
            return SwaggerError(
                .usage,
                "\(path) holds no PEM certificate that can be loaded. Point SSL_CERT_FILE, --ca-cert or "
                    + "SWAGGERCTL_CA_CERT at a PEM file.")
        }
        let reason =
            switch self {
            case .untrusted:
                "its certificate is not trusted. For a private CA, pass its certificate with --ca-cert FILE"
            case .expired(let date):
                "its certificate expired \(RelativeTime.stamp(date, now: now)). Its operator must renew it"
            case .notYetValid(let date):
                "its certificate is not valid until \(RelativeTime.stamp(date, now: now)). Check this machine's clock"
            case .wrongHost:
                "its certificate is for another host name. Use the name that the certificate gives"
            case .noCommonProtocol:
                "it shares no TLS version or cipher with swaggerctl (TLS 1.2 or newer). Check its TLS settings"
            case .notTLS:
                "it does not speak TLS on that port. Check the URL's scheme (http or https) and port"
            case .handshakeFailed, .unloadableTrustStore:
                "the TLS handshake failed. Check the URL and the server's certificate"
            }
        return SwaggerError(.network, "The TLS connection to \(server.hostAndPort) failed: \(reason).")
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
