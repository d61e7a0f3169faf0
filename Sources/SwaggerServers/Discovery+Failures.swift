import FoundationEssentials
import SwaggerModel

extension SwaggerError {
    /// No document that the server publishes describes a login that swaggerctl can send.
    package static func nothingDescribed(_ server: ServerURL, _ lacking: [String]) -> SwaggerError {
        SwaggerError(
            .usage,
            "No login found for \(server): \(lacking.first ?? "")\(lacking.count > 1 ? " and more" : ""). Describe it "
                + "with `swaggerctl server set`.")
    }

    /// A server that nothing describes: no document, metadata or known login, so nothing was sent, and the password
    /// is not asked for.
    package static func undescribedServer(_ server: ServerURL, asked: Int, suggestion: URL?) -> SwaggerError {
        let what = "Nothing at \(server) says how to log in (\(asked) addresses asked; nothing sent)."
        guard let suggestion else {
            return SwaggerError(.usage, "\(what) Check the URL, or `swaggerctl server set URL --preset NAME`.")
        }
        return SwaggerError(.usage, "\(what) Did you mean \(suggestion.absoluteString)?")
    }

    /// A server whose OpenAPI document was not found where it names one, nor where the frameworks publish theirs.
    package static func noDocument(_ server: ServerURL) -> SwaggerError {
        SwaggerError(
            .failure,
            "No OpenAPI document found on \(server). Name it with `swaggerctl server set --openapi URL`, or give "
                + "a path.")
    }

    /// A document asked for again that is gone, or no longer an OpenAPI document.
    package static func unreadableDocument(_ url: URL) -> SwaggerError {
        SwaggerError(
            .server,
            "\(url.absoluteString.prefix(200)) is no longer an OpenAPI document swaggerctl can read; "
                + "the copy kept before is unchanged.")
    }
}
