import FoundationEssentials

/// An API base URL in canonical form: `http` or `https`, a host, an optional port and path, and no trailing
/// slash, query or fragment. Two spellings of the same base URL give the same session key.
public struct ServerURL: Sendable, Hashable, CustomStringConvertible {
    /// The canonical text, such as `https://host/api`.
    public let string: String
    /// The parsed URL.
    public let url: URL

    /// Parses and normalises a base URL.
    /// - Parameter text: What the person typed, such as `HTTPS://Host/api/`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when it is not an HTTP(S) URL.
    public init(_ text: String) throws(SwaggerError) {
        let trimmed = text.trimmingWhitespace()
        // Messages quote what was typed only when it cannot hold a secret: no user info, query or fragment.
        let shown = trimmed.contains(where: { "@?#".contains($0) }) ? "The server URL" : "\"\(trimmed)\""
        let hint = "Give a base URL such as https://host/api."
        guard var components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw SwaggerError(.usage, "\(shown) is not an http or https URL. \(hint)")
        }
        guard components.user == nil, components.password == nil else {
            throw SwaggerError(.usage, "The server URL carries credentials; swaggerctl asks for them instead. \(hint)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SwaggerError(.usage, "\(shown) has no host. \(hint)")
        }
        guard components.query == nil, components.fragment == nil else {
            throw SwaggerError(.usage, "The server URL has a query or fragment. \(hint)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw SwaggerError(.usage, "\(shown) has port \(port); a port is a number from 1 to 65535. \(hint)")
        }
        components.scheme = scheme
        components.host = host.lowercased()
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        while components.path.hasSuffix("/") { components.path.removeLast() }
        guard let url = components.url else {
            throw SwaggerError(.usage, "\(shown) is not a valid URL. \(hint)")
        }
        self.url = url
        self.string = url.absoluteString
    }

    /// The canonical text.
    public var description: String { string }

    /// Whether the URL is `https`, or names this machine (`localhost`, `127.0.0.0/8`, `::1`), where plain HTTP
    /// never leaves the machine: the places a password or token may be sent without `--allow-http`.
    public var isProtected: Bool {
        url.scheme == "https" || isLoopback
    }

    /// `host:port` of a base URL, as TLS messages name it; the URL itself when it cannot be read.
    static func hostAndPort(_ server: String) -> String {
        guard let url = URL(string: server), let host = url.host(percentEncoded: false) else { return server }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The URL that `pathOrURL` names: an absolute `http` or `https` URL as it is, or a path (with a query,
    /// if any) under this base URL, so that `/login` under `https://host/api` is `https://host/api/login`.
    /// - Parameter pathOrURL: What was given, such as `/login` or `https://auth.example.com/token`.
    /// - Returns: The absolute URL.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when it is neither.
    public func resolve(_ pathOrURL: String) throws(SwaggerError) -> URL {
        let text = pathOrURL.trimmingWhitespace()
        if let scheme = URLComponents(string: text)?.scheme?.lowercased() {
            guard scheme == "http" || scheme == "https", let url = URL(string: text), url.host != nil else {
                throw SwaggerError(.usage, "\"\(text.prefix(200))\" is not an http or https URL or a path.")
            }
            return url
        }
        let path = text.hasPrefix("/") ? text : "/" + text
        guard let url = URL(string: string + path) else {
            throw SwaggerError(.usage, "\"\(text.prefix(200))\" is not a path that can follow \(string).")
        }
        return url
    }

    /// Whether `url` has this base URL's scheme, host and port: the only place a session's token may go
    /// for `swaggerctl api`.
    public func isSameOrigin(_ url: URL) -> Bool {
        Self.origin(of: url) == Self.origin(of: self.url)
    }

    /// `scheme://host[:port]` of `url`, with the scheme and host lower-cased and a default port left out.
    public static func origin(of url: URL) -> URL? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: true)?.lowercased(), !host.isEmpty
        else { return nil }
        var components = URLComponents()
        components.scheme = scheme
        // URL gives an IPv6 host without its brackets; URLComponents wants them.
        components.percentEncodedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            components.port = port
        }
        return components.url
    }

    /// Whether the host is this machine: `localhost` (and names under it, RFC 6761 §6.3), `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        guard let host = url.host(percentEncoded: false)?.lowercased() else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if host == "::1" || host == "[::1]" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension URL {
    /// The path and query as sent in a request line: `/api/items?page=2`.
    var pathAndQuery: String {
        let path = path(percentEncoded: true)
        let query = query(percentEncoded: true).map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}
