import FoundationEssentials
import SwaggerModel

/// The plain-HTTP rule: a password or a token crosses plain `http://` only to this machine, and only directly,
/// unless the person allowed it. Through a proxy, `127.0.0.1` is the proxy's own machine, and the proxy reads
/// every byte in clear.
package struct PlainHTTP: Sendable, Hashable {
    /// `--allow-http` or `SWAGGERCTL_ALLOW_HTTP`.
    package var allowed: Bool
    /// The proxies that requests go through.
    package var proxies: ProxySettings

    package init(allowed: Bool = false, proxies: ProxySettings = ProxySettings()) {
        self.allowed = allowed
        self.proxies = proxies
    }

    /// The server, or else the origin of the first of its endpoints, that would carry secrets in clear to
    /// another machine; `nil` when every one is `https` or reached directly on this machine, or plain HTTP is
    /// allowed, by the person or (`sessionAllows`) by the session's own saved permission. A server nothing
    /// describes has no endpoints but itself.
    package func refusal(_ server: ServerURL, _ description: ServerDescription?, sessionAllows: Bool = false)
        -> ServerURL?
    {
        guard !allowed, !sessionAllows else { return nil }
        if !isProtected(server) { return server }
        let endpoints = description?.endpoints ?? []
        return endpoints.lazy.compactMap(ServerURL.init(originOf:)).first { !isProtected($0) }
    }

    /// ``refusal(_:_:sessionAllows:)`` for a stored session, with the allowance its login saved.
    package func refusal(for record: SessionRecord) -> ServerURL? {
        refusal(record.server, record.serverDescription, sessionAllows: record.allowsPlainHTTP == true)
    }

    /// Whether secrets sent to `origin` stay out of other machines' sight: `https`, or this machine directly.
    private func isProtected(_ origin: ServerURL) -> Bool {
        origin.url.scheme == "https" || origin.isLoopback && proxies.proxy(for: origin) == nil
    }
}
