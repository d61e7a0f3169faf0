import FoundationEssentials

extension SessionController {
    /// How a login talks to its server, and the line that says what discovery found, if it ran.
    public struct DialectChoice: Sendable, Hashable {
        /// The dialect; `nil` for the original API.
        public var dialect: ServerDialect?
        /// What discovery found and where, in one line; `nil` when it did not run.
        public var discovered: String?
    }

    /// Decides how to talk to the selected server for a login, reading its discovery documents when the flags
    /// and the saved session do not name an OAuth 2 server's endpoints. Nothing secret is sent.
    /// - Parameters:
    ///   - flags: What the command line set.
    ///   - selection: The server, and its active session, whose dialect a later login reuses.
    ///   - clientSecret: Whether a client secret was given.
    /// - Returns: The dialect, and the line about discovery.
    /// - Throws: ``SwaggerError``: usage for flags that do not fit, or endpoints that could not be found; the
    ///   request's error for a server that could not be reached.
    public func dialect(_ flags: DialectFlags, on selection: SessionSelection, clientSecret: Bool)
        async throws(SwaggerError) -> DialectChoice
    {
        let server = selection.server
        let saved = selection.record?.dialect
        switch try DialectPlan.plan(flags: flags, saved: saved, server: server, clientSecret: clientSecret) {
        case .original:
            return DialectChoice(dialect: nil)
        case .ready(let dialect):
            return DialectChoice(dialect: dialect)
        case .discover(let metadata, let openAPI):
            var found = Discovery.Endpoints()
            var documents: [URL] = []
            var tried: [URL] = []
            for url in metadata {
                tried.append(url)
                if let data = try await document(url), let named = Discovery.metadata(data, at: url) {
                    found = found.merging(named)
                    documents.append(url)
                }
            }
            for url in openAPI where found.token == nil {
                tried.append(url)
                if let data = try await document(url), let named = Discovery.openAPI(data, at: url) {
                    found = found.merging(named)
                    documents.append(url)
                }
            }
            let dialect = try DialectPlan.complete(
                flags: flags, saved: saved, server: server, clientSecret: clientSecret, found: found, at: documents,
                tried: tried)
            return DialectChoice(dialect: dialect, discovered: Self.discoveryLine(dialect, documents))
        }
    }

    private func document(_ url: URL) async throws(SwaggerError) -> Data? {
        do throws(APIServiceError) {
            return try await service.document(at: url)
        } catch {
            throw message(for: error, on: ServerURL.origin(of: url)?.absoluteString ?? url.absoluteString, email: nil)
        }
    }

    /// `Found in URL: the token endpoint T, the profile P, revocation R.`
    static func discoveryLine(_ dialect: ServerDialect, _ documents: [URL]) -> String? {
        guard !documents.isEmpty else { return nil }
        var parts = ["the token endpoint \(dialect.loginURL)", "the profile at \(dialect.profileURL)"]
        parts.append(dialect.revocationURL.map { "revocation at \($0)" } ?? "no revocation endpoint")
        return "Found in \(documents.map(\.absoluteString).joined(separator: " and ")): "
            + parts.joined(separator: ", ") + "; they are saved with the session."
    }
}
