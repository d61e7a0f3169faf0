import Foundation

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
        let trimmed = text.trimmingCharacters(in: .whitespaces)
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

    /// Whether the host is this machine: `localhost` (and names under it, RFC 6761 §6.3), `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        guard let host = url.host(percentEncoded: false)?.lowercased() else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if host == "::1" || host == "[::1]" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
