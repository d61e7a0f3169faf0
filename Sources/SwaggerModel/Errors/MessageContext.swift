import FoundationEssentials

/// What a failure's words depend on besides the failure: the timeout a timeout names, the time a certificate's
/// dates are told from, and the proxies a refusal of plain HTTP to this machine names. Each failure type renders
/// its own text with it (`SessionFailure`, `APIServiceError`, a logout's warnings).
package struct MessageContext: Sendable {
    package var timeout: Duration
    package var now: Date
    package var proxies: ProxySettings

    package init(timeout: Duration, now: Date, proxies: ProxySettings = ProxySettings()) {
        self.timeout = timeout
        self.now = now
        self.proxies = proxies
    }

    /// The refusal to send `what` to `server` over plain HTTP.
    package func plainHTTPRefusal(sending what: String, to server: ServerURL) -> String {
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
    /// The message without its server's name in front, for a line that names the server already: "Could not reach
    /// S: x." and "S refused …" become "could not reach it: x." and "it refused …".
    package func clause(naming server: ServerURL) -> String {
        let named = message.replacing("\(server)", with: "it")
        return named.prefix(1).lowercased() + named.dropFirst()
    }
}
