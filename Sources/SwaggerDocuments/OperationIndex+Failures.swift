import SwaggerModel

extension SwaggerError {
    /// An operation name that the server's document does not have.
    package static func noOperation(_ name: String, on server: ServerURL, nearest: [String]) -> SwaggerError {
        let near = nearest.isEmpty ? "" : " Did you mean \(nearest.joined(separator: " or "))?"
        return SwaggerError(
            .usage,
            "\(server)'s document has no operation \(TerminalText.quoted(String(name.prefix(60))))."
                + "\(near) `swaggerctl operations` lists them.")
    }
}
