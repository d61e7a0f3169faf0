import FoundationEssentials

/// The server: an API base URL in canonical form, `http` or `https`, a host, an optional port and path, and no
/// trailing slash, query or fragment. Two spellings of the same base URL are one server.
///
/// It is parsed once, where it enters (a flag, the environment, a file), and travels parsed from there.
package struct ServerURL: Sendable, Hashable, TextCoded, CustomStringConvertible {
    /// The canonical text, such as `https://host/api`.
    package let string: String
    package let url: URL
    /// How many bytes of ``string`` are the origin, `scheme://host[:port]`.
    private let originLength: Int

    /// Parses and normalises a base URL.
    /// - Parameter text: What the person typed, such as `HTTPS://Host/api/`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when it is not an HTTP(S) URL.
    package init(_ text: String) throws(SwaggerError) {
        let trimmed = text.trimmingWhitespace()
        // Messages quote what was typed only when it cannot hold a secret: no user info, query or fragment.
        let shown =
            trimmed.utf8.contains { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ? "The server URL" : "\"\(trimmed)\""
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
        // A port too long for an integer is no port at all to URLComponents, which keeps its text all the same.
        if components.port == nil, let range = components.rangeOfPort, let text = components.string {
            throw SwaggerError(
                .usage, "\(shown) has port \(text[range].prefix(30)); a port is a number from 1 to 65535. \(hint)")
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
        originLength = Self.originLength(of: string)
    }

    package var description: String { string }

    package static func == (lhs: ServerURL, rhs: ServerURL) -> Bool { lhs.string == rhs.string }

    package func hash(into hasher: inout Hasher) { hasher.combine(string) }

    /// `host:port`, as TLS messages name it.
    package var hostAndPort: String {
        let host = url.host(percentEncoded: false) ?? string
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `path` (with a query, if any) under this base URL: joined where it begins with the segments this URL's path
    /// ends with, else appended. A server typed with its API's prefix (`https://host/_allauth`) and a path written
    /// from the origin, as documents and presets write theirs (`/_allauth/app/v1/auth/login`), name one place:
    /// `https://host/_allauth/app/v1/auth/login`. What is joined is always followed by one segment more, so that a
    /// path that is the whole prefix (`/_allauth`) is still read under it.
    package func joining(_ path: String) -> String {
        let path = path.hasPrefix("/") ? path : "/" + path
        // By bytes: every separator is ASCII, and the segments are compared as they are written, percent-encoded.
        let slash = UInt8(ascii: "/")
        let typed = url.path(percentEncoded: true).utf8.split(separator: slash)
        let wanted = path.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            .split(separator: slash, omittingEmptySubsequences: false).dropFirst()
        for overlap in stride(from: min(typed.count, wanted.count - 1), through: 1, by: -1)
        where typed.suffix(overlap).elementsEqual(wanted.prefix(overlap), by: { $0.elementsEqual($1) }) {
            let joined = wanted.prefix(overlap).reduce(0) { $0 + $1.count + 1 }
            return string + String(decoding: path.utf8.dropFirst(joined), as: UTF8.self)
        }
        return string + path
    }

    /// The URL that `pathOrURL` names: an absolute `http` or `https` URL as it is, or a path (with a query,
    /// if any) under this base URL, as ``joining(_:)`` places it, so that `/login` under `https://host/api` is
    /// `https://host/api/login`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when it is neither.
    package func resolve(_ pathOrURL: String) throws(SwaggerError) -> URL {
        let text = pathOrURL.trimmingWhitespace()
        if let scheme = URLComponents(string: text)?.scheme?.lowercased() {
            guard scheme == "http" || scheme == "https", let url = URL(string: text), url.host != nil else {
                throw SwaggerError(.usage, "\"\(text.prefix(200))\" is not an http or https URL or a path.")
            }
            return url
        }
        guard let url = URL(string: joining(text)) else {
            throw SwaggerError(.usage, "\"\(text.prefix(200))\" is not a path that can follow \(string).")
        }
        return url
    }

    /// The URL of `path` on this server's origin, for a path that a document or the person wrote: `nil` unless
    /// ``isPathOnOrigin(_:)``, and for a URL that would not be on this origin, which is checked again on the URL made,
    /// so that no spelling can move the request elsewhere. Bytes beyond ASCII are percent-encoded.
    ///
    /// The path is not read against this base URL's own path: `/items` is `scheme://host[:port]/items`.
    package func onOrigin(_ path: String) -> URL? {
        guard Self.isPathOnOrigin(path) else { return nil }
        let encoded =
            path.utf8.contains(where: { $0 >= 0x80 }) ? PercentEncoding.encode(path, keeping: { $0 < 0x80 }) : path
        guard let url = URL(string: String(decoding: string.utf8.prefix(originLength), as: UTF8.self) + encoded),
            isSameOrigin(url)
        else {
            return nil
        }
        return url
    }

    /// Whether `path`, written after an origin, can only be a path there: it starts with one `/` (two would make
    /// what follows a host wherever it is read as a reference), so that nothing in it is read as a host, a user or a
    /// port, and it holds no space, control character or backslash, which URL parsers read differently.
    package static func isPathOnOrigin(_ path: some StringProtocol) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/") else { return false }
        return !bytes.contains { $0 <= UInt8(ascii: " ") || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
    }

    /// Whether `url` has this base URL's scheme, host and port: the only place a session's token may go
    /// for `swaggerctl api`.
    package func isSameOrigin(_ url: URL) -> Bool {
        // This base URL is canonical (lower case, no default port, no user): its origin is its text up to the path.
        // A URL whose text begins with that origin and then its path, query or fragment is on it, whatever else it
        // holds: with no `@` before them it has no user, and the host and port end there. Any other spelling of
        // the origin (capitals, the default port) is read by its parts.
        var text = url.absoluteString
        var own = string
        let length = originLength
        let spelledAsOwn = text.withUTF8 { theirs in
            own.withUTF8 { mine in
                guard theirs.count >= length, theirs.prefix(length).elementsEqual(mine.prefix(length)) else {
                    return false
                }
                return theirs.count == length
                    || [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(theirs[length])
            }
        }
        guard !spelledAsOwn else { return true }
        guard let theirs = Self.originText(of: url) else { return false }
        return theirs.utf8.elementsEqual(string.utf8.prefix(length))
    }

    /// How many bytes of `canonical`, a base URL's text, are its origin: all but its path, as it has no query or
    /// fragment.
    private static func originLength(of canonical: String) -> Int {
        var text = canonical
        return text.withUTF8 { bytes in
            // `http://` or `https://`: the host begins after the first two slashes, and the path at the next.
            guard let first = bytes.firstIndex(of: UInt8(ascii: "/")), first + 2 <= bytes.count else {
                return bytes.count
            }
            return bytes[(first + 2)...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        }
    }

    /// The origin of `url` as a server, `scheme://host[:port]`; `nil` when `url` is not http or https.
    package init?(originOf url: URL) {
        // Made from a URL already parsed: its text is canonical as it is, and is parsed once more only to be a URL.
        guard let text = Self.originText(of: url), let origin = URL(string: text) else { return nil }
        string = origin.absoluteString
        originLength = Self.originLength(of: string)
        self.url = origin
    }

    /// The origin that `--allow-origin TEXT` names: `scheme://host[:port]`, or a bare host (with a port or not),
    /// which is `https://`; `nil` for anything with a path, a query or credentials, or that is not http or https.
    package static func allowedOrigin(_ text: String) -> ServerURL? {
        let whole = text.contains("://") ? text : "https://" + text
        guard text.count <= 300, let url = URL(string: whole), url.user == nil, url.password == nil,
            url.query == nil, url.fragment == nil, ["", "/"].contains(url.path(percentEncoded: true))
        else { return nil }
        return ServerURL(originOf: url)
    }

    /// `scheme://host[:port]` of `url`, with the scheme and host lower-cased and a default port left out.
    package static func origin(of url: URL) -> URL? {
        originText(of: url).flatMap { URL(string: $0) }
    }

    /// The text of ``origin(of:)``, from `url`'s parts: every page of `api --paginate` asks it of two URLs, which
    /// URLComponents would parse again.
    private static func originText(of url: URL) -> String? {
        guard let scheme = url.scheme.map(lowercased), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: true).map(lowercased), !host.isEmpty
        else { return nil }
        // URL gives an IPv6 host without its brackets.
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) else {
            return "\(scheme)://\(bracketed)"
        }
        return "\(scheme)://\(bracketed):\(port)"
    }

    /// `text` in lower case; as it is, with no copy, when it has no upper-case ASCII letter, as a URL's scheme and
    /// host mostly have not.
    private static func lowercased(_ text: String) -> String {
        text.utf8.contains { $0.asciiLowercased != $0 } ? text.lowercased() : text
    }

    /// Whether the host is this machine: `localhost` (and names under it, RFC 6761 §6.3), `127.0.0.0/8` or `::1`.
    package var isLoopback: Bool {
        guard let host = url.host(percentEncoded: false)?.lowercased() else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if host == "::1" || host == "[::1]" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension URL {
    /// The path and query as sent in a request line: `/api/items?page=2`.
    package var pathAndQuery: String {
        let path = path(percentEncoded: true)
        let query = query(percentEncoded: true).map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}
