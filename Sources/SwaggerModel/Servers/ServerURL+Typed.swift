import FoundationEssentials

extension ServerURL {
    /// The scheme that `text`, an address typed without one, is taken to have, as curl takes one: `http` on a
    /// host that ``isLoopback`` says is this machine, where nothing leaves it, `https` anywhere else; `nil` when
    /// `text` has a scheme.
    package static func assumedScheme(of text: String) -> String? {
        guard !text.isEmpty, !text.contains("://") else { return nil }
        return (try? ServerURL("http://" + text))?.isLoopback == true ? "http" : "https"
    }

    /// The line that says which scheme `text` was taken to have, for the person who typed it; `nil` when it has
    /// one.
    package static func assumption(in text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard let scheme = assumedScheme(of: trimmed) else { return nil }
        let place = scheme == "http" ? ", as the address is on this machine" : ""
        return "\(TerminalText.cut(trimmed, to: 60)) has no scheme: taking it for \(scheme)://\(place)."
    }

    /// Parses an address as a person types it: ``init(_:)``'s rules, with the scheme ``assumedScheme(of:)`` says
    /// where there is none.
    package init(typed text: String) throws(SwaggerError) {
        let trimmed = text.trimmingWhitespace()
        try self.init(Self.assumedScheme(of: trimmed).map { "\($0)://\(trimmed)" } ?? trimmed)
    }
}
