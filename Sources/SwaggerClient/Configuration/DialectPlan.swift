import FoundationEssentials

/// How a login finds out how to talk to its server: from the flags, the session saved for the server, the
/// kind's defaults, and, for an OAuth 2 server whose endpoints the flags do not name, discovery.
///
/// Only decisions are here; ``SessionController`` fetches the documents that ``discover(metadata:openAPI:)`` names.
public enum DialectPlan: Sendable, Hashable {
    /// The original API, whose requests are fixed by its document.
    case original
    /// This dialect; nothing needs to be fetched.
    case ready(ServerDialect)
    /// Read these documents in turn, the OAuth 2 metadata first and OpenAPI documents after, then send what
    /// was found to ``complete(flags:saved:server:clientSecret:found:at:tried:)``.
    case discover(metadata: [URL], openAPI: [URL])

    /// Decides how to log in.
    /// - Parameters:
    ///   - flags: What the command line set.
    ///   - saved: The dialect of the session saved for this server, if any: a later login reuses it, as it
    ///     reuses the app id.
    ///   - server: The server's URL.
    ///   - clientSecret: Whether a client secret was given.
    /// - Returns: The plan.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for flags that do not fit the kind.
    public static func plan(flags: DialectFlags, saved: ServerDialect?, server: ServerURL, clientSecret: Bool)
        throws(SwaggerError) -> DialectPlan
    {
        let kind = flags.kind ?? saved?.kind ?? (flags.isEmpty && !clientSecret ? .original : nil)
        guard let kind else {
            throw SwaggerError(
                .usage,
                "\(flags.dialectFlagsGiven.first ?? "--client-secret-stdin") describes an Identity or OAuth 2 server; "
                    + "say which with --kind identity or --kind oauth2.")
        }
        switch kind {
        case .original:
            if let given = flags.dialectFlagsGiven.first ?? (clientSecret ? "--client-secret-stdin" : nil) {
                throw SwaggerError(
                    .usage,
                    "\(given) is for --kind identity or oauth2; the original API's requests are fixed by its document.")
            }
            return .original
        case .identity:
            if let given = [("--openapi", flags.openAPI), ("--client-id", flags.clientID), ("--scope", flags.scope)]
                .first(where: { $0.1 != nil })?.0 ?? (clientSecret ? "--client-secret-stdin" : nil)
            {
                throw SwaggerError(
                    .usage, "\(given) is for --kind oauth2; ASP.NET Core Identity has no clients or scopes.")
            }
            // ASP.NET Core Identity's routes, under the URL its MapIdentityApi group is mapped at.
            let base =
                saved?.kind == .identity
                ? saved
                : ServerDialect(
                    kind: .identity, loginURL: try server.resolve("/login").absoluteString,
                    refreshURL: try server.resolve("/refresh").absoluteString, revocationURL: nil,
                    profileURL: try server.resolve("/manage/info").absoluteString, fields: .camelCase)
            return .ready(
                ServerDialect(
                    kind: .identity, loginURL: try resolve(flags.loginPath, server) ?? base?.loginURL ?? "",
                    refreshURL: try resolve(flags.refreshPath, server) ?? base?.refreshURL,
                    revocationURL: try resolve(flags.revokePath, server) ?? base?.revocationURL,
                    profileURL: try resolve(flags.profilePath, server) ?? base?.profileURL ?? "",
                    fields: fields(flags, base: base?.fields ?? .camelCase)))
        case .oauth2:
            let base = saved?.kind == .oauth2 ? saved : nil
            let token = try resolve(flags.loginPath, server) ?? base?.loginURL
            let profile = try resolve(flags.profilePath, server) ?? base?.profileURL
            if token == nil || profile == nil || flags.openAPI != nil {
                // A document given by name is the only one read.
                if let document = flags.openAPI {
                    return .discover(metadata: [], openAPI: [try server.resolve(document)])
                }
                return .discover(
                    metadata: Discovery.metadataDocuments(for: server), openAPI: Discovery.openAPIDocuments(for: server)
                )
            }
            return .ready(try complete(flags: flags, base: base, server: server, clientSecret: clientSecret))
        }
    }

    /// The OAuth 2 dialect once discovery has read what it could: the flags win over what was found, and
    /// what was found over the saved session.
    /// - Parameters:
    ///   - flags: What the command line set.
    ///   - saved: The dialect of the session saved for this server, if any.
    ///   - server: The server's URL.
    ///   - clientSecret: Whether a client secret was given.
    ///   - found: What the documents named.
    ///   - documents: The documents that named something.
    ///   - tried: Every document read, for the message when nothing was found.
    /// - Returns: The dialect.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` when there is still no token endpoint or
    ///   no profile endpoint: the flags must say.
    public static func complete(
        flags: DialectFlags, saved: ServerDialect?, server: ServerURL, clientSecret: Bool,
        found: Discovery.Endpoints, at documents: [URL], tried: [URL]
    ) throws(SwaggerError) -> ServerDialect {
        let base = saved?.kind == .oauth2 ? saved : nil
        guard try resolve(flags.loginPath, server) ?? found.token?.absoluteString ?? base?.loginURL != nil else {
            throw SwaggerError(
                .usage,
                "No OAuth 2 token endpoint was found for \(server); tried \(tried.map(\.absoluteString).joined(separator: ", ")). "
                    + "Give it with --login-path, or the server's OpenAPI document with --openapi.")
        }
        guard try resolve(flags.profilePath, server) ?? found.userinfo?.absoluteString ?? base?.profileURL != nil else {
            throw SwaggerError(
                .usage,
                "Found the token endpoint \(found.token?.absoluteString ?? "") but no profile (userinfo) endpoint for "
                    + "\(server); give the profile's path with --profile-path.")
        }
        let fromDocuments = ServerDialect(
            kind: .oauth2, loginURL: found.token?.absoluteString ?? base?.loginURL ?? "",
            refreshURL: found.refresh?.absoluteString ?? found.token?.absoluteString ?? base?.refreshURL,
            revocationURL: found.revocation?.absoluteString ?? base?.revocationURL,
            profileURL: found.userinfo?.absoluteString ?? base?.profileURL ?? "", fields: base?.fields ?? .oauth2,
            discoveredAt: documents.isEmpty
                ? base?.discoveredAt : documents.map(\.absoluteString).joined(separator: " "))
        return try complete(flags: flags, base: fromDocuments, server: server, clientSecret: clientSecret)
    }

    /// `base` with the flags applied.
    private static func complete(flags: DialectFlags, base: ServerDialect?, server: ServerURL, clientSecret: Bool)
        throws(SwaggerError) -> ServerDialect
    {
        // Checked by the callers: both are there, from the flags or the base.
        let token = try resolve(flags.loginPath, server) ?? base?.loginURL ?? ""
        return ServerDialect(
            kind: .oauth2, loginURL: token,
            refreshURL: try resolve(flags.refreshPath, server) ?? (flags.loginPath != nil ? token : base?.refreshURL)
                ?? token,
            revocationURL: try resolve(flags.revokePath, server) ?? base?.revocationURL,
            profileURL: try resolve(flags.profilePath, server) ?? base?.profileURL ?? "",
            clientID: flags.clientID ?? base?.clientID, scope: flags.scope ?? base?.scope,
            fields: fields(flags, base: base?.fields ?? .oauth2),
            usesClientSecret: clientSecret,
            discoveredAt: base?.discoveredAt)
    }

    private static func fields(_ flags: DialectFlags, base: TokenFields) -> TokenFields {
        TokenFields(
            accessToken: flags.accessTokenField ?? base.accessToken,
            refreshToken: flags.refreshTokenField ?? base.refreshToken,
            expiresIn: flags.expiresInField ?? base.expiresIn)
    }

    private static func resolve(_ path: String?, _ server: ServerURL) throws(SwaggerError) -> String? {
        guard let path else { return nil }
        return try server.resolve(path).absoluteString
    }
}
