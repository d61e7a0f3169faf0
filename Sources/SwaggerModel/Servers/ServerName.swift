/// A short name for a server, such as `demo`, that `-s` and `SWAGGERCTL_SERVER` take in place of its URL: letters,
/// digits, `-`, `_` and `.`, at most 64 of them, not starting with `-` or `.`.
///
/// A name never holds `:` or `/`, so that no text is both a name and a URL: whatever has either is read as a URL.
package struct ServerName: Sendable, Hashable, TextCoded, Comparable, CustomStringConvertible {
    package let string: String

    /// A name as typed, such as `demo`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when it is not one word of those characters.
    package init(_ text: String) throws(SwaggerError) {
        guard Self.isName(text) else { throw Self.invalid(text) }
        string = text
    }

    /// Whether `text` can be a name.
    static func isName(_ text: some StringProtocol) -> Bool {
        let bytes = text.utf8
        // A leading `-` would read as an option, and a leading `.` makes `.` and `..`, which look like folders.
        guard (1...64).contains(bytes.count), let first = bytes.first, first != UInt8(ascii: "-"),
            first != UInt8(ascii: ".")
        else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default: false
            }
        }
    }

    package var description: String { string }

    package static func < (lhs: ServerName, rhs: ServerName) -> Bool { lhs.string < rhs.string }

    /// The name of `server` among `entries`, if it has one.
    package static func of(_ server: ServerURL, among entries: [ServerEntry]) -> ServerName? {
        entries.first { $0.server == server }?.name
    }

    /// The error for text that is neither a URL nor a name.
    private static func invalid(_ text: String) -> SwaggerError {
        // Quoted only when it is short and plain: a mistyped secret would otherwise reach the terminal.
        let shown =
            text.count <= 64 && !text.contains(where: { $0.isNewline || $0.isWhitespace }) ? "\"\(text)\"" : "It"
        return SwaggerError(
            .usage,
            "\(shown) is not a server name: a name is one word of letters, digits, -, _ and ., such as demo.")
    }
}

/// What `-s`, `SWAGGERCTL_SERVER` or a server argument says: a server's URL, or the name of one.
package enum ServerReference: Sendable, Hashable, CustomStringConvertible {
    case url(ServerURL)
    case name(ServerName)

    /// Reads `text`: anything with a `:` or a `/` is a URL, with the scheme ``ServerURL/assumedScheme(of:)`` says
    /// when it has none, and a word of a name's characters is a name; anything else gets the URL's error, which says
    /// what a URL looks like.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for text that is neither.
    package init(_ text: String) throws(SwaggerError) {
        let trimmed = text.trimmingWhitespace()
        if !trimmed.contains(":"), !trimmed.contains("/"), ServerName.isName(trimmed) {
            self = .name(try ServerName(trimmed))
        } else {
            self = .url(try ServerURL(typed: trimmed))
        }
    }

    /// The line that says which scheme `text`, read as this reference, was taken to have; `nil` when it had one, or
    /// names a server.
    package func assumption(typed text: String) -> String? {
        guard case .url = self else { return nil }
        return ServerURL.assumption(in: text)
    }

    package var description: String {
        switch self {
        case .url(let url): url.string
        case .name(let name): name.string
        }
    }

    /// The server this names, with `entries` giving the names.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for a name none of `entries` has, naming
    ///   the names there are, or how to give one.
    package func resolved(among entries: [ServerEntry]) throws(SwaggerError) -> ServerURL {
        switch self {
        case .url(let url): return url
        case .name(let name):
            if let entry = entries.first(where: { $0.name == name }) { return entry.server }
            let known = entries.compactMap(\.name).sorted()
            let hint =
                if name.string.contains(".") {
                    // A host typed without its scheme, as `gh` and `docker login` take one: the URL is not guessed,
                    // since neither the scheme nor the API's path is known, but shown.
                    "For the server at that host, give its URL, such as https://\(name)."
                } else if known.isEmpty {
                    "No server has a name yet; give one with `swaggerctl server set URL --name \(name)`."
                } else {
                    "Known names: \(known.map(\.string).joined(separator: ", "))."
                }
            throw SwaggerError(.usage, "No server is named \(name). \(hint)")
        }
    }
}
