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
}
