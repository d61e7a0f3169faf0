import FoundationEssentials
import Glibc

/// The HTTP proxies the environment names, and the hosts that bypass them, read as curl reads them.
///
/// - `https_proxy` / `HTTPS_PROXY` for `https://` servers, `http_proxy` / `HTTP_PROXY` for `http://` ones, and
///   `all_proxy` / `ALL_PROXY` for either when the specific one is unset. The lower-case name wins. curl ignores
///   `HTTP_PROXY` altogether, because a CGI program gets it from a request's `Proxy:` header ("httpoxy");
///   swaggerctl honours it, except when `REQUEST_METHOD` says it runs under CGI, as Go's `net/http` does.
/// - A proxy is an `http://` URL; without a scheme `http://` is assumed, and without a port, 1080, as curl
///   does. `user:password@` in it is sent as `Proxy-Authorization: Basic`, and never shown.
/// - `no_proxy` / `NO_PROXY` is a comma-separated list. `*` matches every host. Any other entry matches the
///   host itself and every host under it: `example.com` and `.example.com` both match `example.com` and
///   `api.example.com`, but not `myexample.com`. IP addresses match exactly, or by CIDR (`10.0.0.0/8`); IPv6
///   addresses are written without brackets.
package struct ProxySettings: Sendable, Hashable {
    /// One proxy: where it is, and the credentials to give it.
    package struct Proxy: Sendable, Hashable, CustomStringConvertible {
        package var host: String
        package var port: Int
        /// The user name for `Proxy-Authorization: Basic`, if any.
        package var username: String?
        /// The password for `Proxy-Authorization: Basic`, if any. It is never shown.
        package var password: String?

        /// `http://user:[redacted]@host:port`: the proxy as logs show it.
        package var description: String {
            let user = username.map { "\($0)\(password == nil ? "" : ":[redacted]")@" } ?? ""
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "http://\(user)\(shownHost):\(port)"
        }
    }

    /// The proxy for `http://` servers.
    package var http: Proxy?
    /// The proxy for `https://` servers.
    package var https: Proxy?
    /// The `no_proxy` entries.
    var bypass: [String] = []

    /// No proxy at all.
    package init() {}

    /// Reads the proxy variables.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for a proxy URL that cannot be used.
    package init(environment: [String: String]) throws(SwaggerError) {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name]?.trimmingWhitespace(), !value.isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        let underCGI = environment["REQUEST_METHOD"].map { !$0.isEmpty } ?? false
        let all = value("all_proxy", "ALL_PROXY")
        let plain = underCGI ? value("http_proxy") : value("http_proxy", "HTTP_PROXY")
        if let named = plain ?? all { http = try Self.proxy(named.value, from: named.name) }
        if let named = value("https_proxy", "HTTPS_PROXY") ?? all {
            https = try Self.proxy(named.value, from: named.name)
        }
        bypass = (value("no_proxy", "NO_PROXY")?.value ?? "").split(separator: ",")
            .map { $0.trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The proxy to reach `server` through, or `nil` to connect directly.
    package func proxy(for server: ServerURL) -> Proxy? {
        let proxy = server.url.scheme == "https" ? https : http
        guard let proxy, let host = server.url.host(percentEncoded: false) else { return proxy }
        return bypasses(host) ? nil : proxy
    }

    /// Whether `no_proxy` sends `host` directly.
    func bypasses(_ host: String) -> Bool {
        let host = host.lowercased().trimming(while: { $0 == "[" || $0 == "]" })
        let address = IPAddress(host)
        for entry in bypass {
            if entry == "*" { return true }
            if let (network, bits) = IPAddress.network(entry) {
                if let address, address.isIn(network, bits: bits) { return true }
                continue
            }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return true }
        }
        return false
    }

    private static func proxy(_ text: String, from name: String) throws(SwaggerError) -> Proxy {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            throw SwaggerError(.usage, "\(name) is not a proxy URL such as http://proxy.example.com:3128.")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw SwaggerError(
                .usage, "\(name) names a \(components.scheme ?? "") proxy; swaggerctl works through http:// proxies.")
        }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else {
            throw SwaggerError(.usage, "\(name) has port \(port); a port is a number from 1 to 65535.")
        }
        return Proxy(
            host: host.trimming(while: { $0 == "[" || $0 == "]" }), port: port,
            username: components.user.map { PercentEncoding.decode($0) ?? $0 },
            password: components.password.map { PercentEncoding.decode($0) ?? $0 })
    }
}

/// An IPv4 or IPv6 address as bytes, for `no_proxy`'s exact and CIDR entries.
package struct IPAddress: Hashable {
    package var bytes: [UInt8]

    package init?(_ text: String) {
        if let bytes = Self.parse(text, family: AF_INET, size: 4) ?? Self.parse(text, family: AF_INET6, size: 16) {
            self.bytes = bytes
        } else {
            return nil
        }
    }

    /// An entry's network and prefix length: `10.0.0.0/8`, or an address alone, which is all of its bits.
    static func network(_ entry: String) -> (IPAddress, Int)? {
        let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = IPAddress(parts[0]) else { return nil }
        let all = address.bytes.count * 8
        guard parts.count == 2 else { return (address, all) }
        guard let bits = Int(parts[1]), (0...all).contains(bits) else { return nil }
        return (address, bits)
    }

    /// Whether the first `bits` bits equal `network`'s.
    func isIn(_ network: IPAddress, bits: Int) -> Bool {
        guard bytes.count == network.bytes.count else { return false }
        for index in 0..<bytes.count {
            let used = min(8, max(0, bits - index * 8))
            let mask = used == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - used))
            if bytes[index] & mask != network.bytes[index] & mask { return false }
        }
        return true
    }

    private static func parse(_ text: String, family: Int32, size: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: size)
        return inet_pton(family, text, &buffer) == 1 ? buffer : nil
    }
}
