import FoundationEssentials
import SwaggerModel

/// How a login finds out how to talk to its server: from the flags, the description saved for the server, the
/// kind's defaults, and, for an OAuth 2 server whose endpoints the flags do not name, discovery.
///
/// Only decisions are here; the controller fetches the documents that ``discover(metadata:openAPI:)`` names.
package enum ServerPlan: Sendable, Hashable {
    /// This description; nothing needs to be fetched.
    case ready(ServerDescription)
    /// Read these documents in turn, the OAuth 2 metadata first and OpenAPI documents after, then send what
    /// was found to ``complete(flags:saved:server:clientSecret:found:at:tried:)``.
    case discover(metadata: [URL], openAPI: [URL])
    /// Nothing says what the server is: read these documents in turn, for OAuth 2 metadata or an OpenAPI
    /// document whose operations describe the login (see ``Discovery/operations(_:at:)``), and take the original
    /// API when none is published.
    case explore(metadata: [URL], openAPI: [URL])

    /// Decides how to log in.
    ///
    /// `saved` is the description saved with the server's active session, if any: a later login reuses it, as it
    /// reuses the app id. `clientSecret` says whether a client secret was given.
    /// - Throws: `SwaggerError` with code `usage` for flags that do not fit the kind.
    package static func plan(flags: ServerFlags, saved: ServerDescription?, server: ServerURL, clientSecret: Bool)
        throws(SwaggerError) -> ServerPlan
    {
        // Flags without a kind change what the documents describe. A client secret, and a document named with
        // --openapi, are OAuth 2's alone.
        if flags.kind == nil, saved == nil, !clientSecret, flags.openAPI == nil {
            return .explore(
                metadata: Discovery.metadataDocuments(for: server), openAPI: Discovery.openAPIDocuments(for: server))
        }
        let saved = saved?.kind == .original ? nil : saved
        let kind = flags.kind ?? saved?.kind ?? (flags.isEmpty && !clientSecret ? .original : nil)
        guard let kind else {
            throw SwaggerError(
                .usage,
                "\(flags.given.first ?? "--client-secret-stdin") describes another kind of server than the original "
                    + "API; say which with --kind (see swaggerctl login --help).")
        }
        switch kind {
        case .original:
            if let given = flags.given.first ?? (clientSecret ? "--client-secret-stdin" : nil) {
                throw SwaggerError(
                    .usage,
                    "\(given) is for the other kinds of server; the original API's requests are fixed by its "
                        + "document.")
            }
            return .ready(.original(server))
        case .identity, .simplejwt, .flaskJWTExtended, .fastapiUsers, .custom:
            let name = kind.title
            if let given = [("--openapi", flags.openAPI), ("--client-id", flags.clientID), ("--scope", flags.scope)]
                .first(where: { $0.1 != nil })?.0 ?? (clientSecret ? "--client-secret-stdin" : nil)
            {
                throw SwaggerError(.usage, "\(given) is for --kind oauth2; \(name) has no clients or scopes.")
            }
            let base = saved?.kind == kind ? saved : nil
            let defaults = try Self.routes(of: kind, under: server)
            guard let profile = try resolve(flags.profilePath, server) ?? base?.profileURL ?? defaults.profile else {
                throw SwaggerError(
                    .usage,
                    "\(name) has no profile endpoint of its own; give the address of the current user's, such as "
                        + "/users/me/, with --profile-path.")
            }
            guard let login = try resolve(flags.loginPath, server) ?? base?.loginURL ?? defaults.login else {
                throw SwaggerError(
                    .usage, "\(name) has no login endpoint of its own; give its address with --login-path.")
            }
            var description = ServerDescription(
                kind: kind, loginURL: login,
                refreshURL: try resolve(flags.refreshPath, server) ?? base?.refreshURL ?? defaults.refresh,
                revocationURL: try resolve(flags.revokePath, server) ?? base?.revocationURL ?? defaults.revocation,
                profileURL: profile, fields: fields(flags, base: base?.fields ?? defaults.fields))
            shape(&description, flags, base: base)
            return .ready(description)
        case .oauth2:
            let base = saved?.kind == .oauth2 ? saved : nil
            if let token = try resolve(flags.loginPath, server) ?? base?.loginURL,
                let profile = try resolve(flags.profilePath, server) ?? base?.profileURL, flags.openAPI == nil
            {
                return .ready(
                    try oauth2(
                        flags: flags, base: base, token: token, profile: profile, server: server,
                        clientSecret: clientSecret))
            }
            // A document given by name is the only one read.
            if let document = flags.openAPI {
                return .discover(metadata: [], openAPI: [try server.resolve(document)])
            }
            return .discover(
                metadata: Discovery.metadataDocuments(for: server), openAPI: Discovery.openAPIDocuments(for: server))
        }
    }

    /// The OAuth 2 description once discovery has read what it could: the flags win over what was found, and
    /// what was found over the saved description.
    ///
    /// `documents` are the documents that named something, and `tried` every document read, for the message
    /// when nothing was found.
    /// - Throws: `SwaggerError` with code `usage` when there is still no token endpoint or no profile endpoint:
    ///   the flags must say.
    package static func complete(
        flags: ServerFlags, saved: ServerDescription?, server: ServerURL, clientSecret: Bool,
        found: Discovery.Endpoints, at documents: [URL], tried: [URL]
    ) throws(SwaggerError) -> ServerDescription {
        let saved = saved?.kind == .oauth2 ? saved : nil
        guard let token = try resolve(flags.loginPath, server) ?? found.token ?? saved?.loginURL else {
            throw SwaggerError(
                .usage,
                "No OAuth 2 token endpoint was found for \(server); tried \(tried.map(\.absoluteString).joined(separator: ", ")). "
                    + "Give it with --login-path, or the server's OpenAPI document with --openapi.")
        }
        guard let profile = try resolve(flags.profilePath, server) ?? found.userinfo ?? saved?.profileURL else {
            throw SwaggerError(
                .usage,
                "Found the token endpoint \(token.absoluteString) but no profile (userinfo) endpoint for \(server); "
                    + "give the profile's path with --profile-path.")
        }
        var fromDocuments = ServerDescription(
            kind: .oauth2, loginURL: found.token ?? saved?.loginURL ?? token,
            refreshURL: found.refresh ?? found.token ?? saved?.refreshURL,
            revocationURL: found.revocation ?? saved?.revocationURL,
            profileURL: found.userinfo ?? saved?.profileURL ?? profile, clientID: saved?.clientID,
            scope: saved?.scope, fields: saved?.fields ?? .oauth2,
            discoveredAt: documents.isEmpty ? saved?.discoveredAt ?? [] : documents)
        fromDocuments.deviceAuthorizationURL = found.deviceAuthorization ?? saved?.deviceAuthorizationURL
        fromDocuments.authorizationURL = found.authorization ?? saved?.authorizationURL
        return try oauth2(
            flags: flags, base: fromDocuments, token: token, profile: profile, server: server,
            clientSecret: clientSecret)
    }

    /// How a login signs in: as `flag` (`--web`, `--device`) says; else as the saved session's login did; else with
    /// the password, unless the server's documents list the grants it offers (`grantTypes`) without the password
    /// grant, and one that a person finishes in a browser with it. Then the browser where there is one
    /// (`hasBrowser`), and the device code where there is not.
    package static func signIn(
        flag: SignIn?, grantTypes: [String]?, description: ServerDescription, hasBrowser: Bool
    ) -> SignIn {
        if let flag { return flag }
        if description.signIn != .password { return description.signIn }
        guard description.kind == .oauth2, let grantTypes, !grantTypes.contains("password") else { return .password }
        let web = grantTypes.contains("authorization_code") && description.authorizationURL != nil
        let device =
            grantTypes.contains("urn:ietf:params:oauth:grant-type:device_code")
            && description.deviceAuthorizationURL != nil
        switch (web, device) {
        case (true, true): return hasBrowser ? .web : .device
        case (true, false): return .web
        case (false, true): return .device
        case (false, false): return .password
        }
    }

    /// The original API's description, for a server that describes no other kind; the flags that describe
    /// another are refused.
    /// - Throws: `SwaggerError` with code `usage` naming the first such flag.
    package static func original(flags: ServerFlags, server: ServerURL) throws(SwaggerError) -> ServerDescription {
        if let given = flags.given.first {
            throw SwaggerError(
                .usage,
                "\(given) describes another kind of server than the original API, and \(server) publishes no "
                    + "document that describes one; say which with --kind (see swaggerctl login --help).")
        }
        return .original(server)
    }

    /// The description of a server whose OpenAPI document, at `document`, describes its operations, with the
    /// flags over what it says. It is a custom server's, saved with the session as any other.
    /// - Throws: `SwaggerError` with code `usage` when neither the document nor `--profile-path` names the
    ///   current user's address.
    package static func described(
        _ found: Discovery.Described, at document: URL, flags: ServerFlags = ServerFlags(), server: ServerURL
    ) throws(SwaggerError) -> ServerDescription {
        if let given = [("--client-id", flags.clientID), ("--scope", flags.scope)].first(where: { $0.1 != nil })?.0 {
            throw SwaggerError(
                .usage,
                "\(given) is for OAuth 2 servers, and \(document.absoluteString) describes a login of its own, "
                    + "\(found.login.operation); log in without it, or say --kind oauth2.")
        }
        guard let profile = try resolve(flags.profilePath, server) ?? found.profile?.url else {
            throw SwaggerError(
                .usage,
                "\(document.absoluteString) describes the login, \(found.login.operation), but no operation that reads "
                    + "the current user; give its path with --profile-path.")
        }
        var description = ServerDescription(
            kind: .custom, loginURL: try resolve(flags.loginPath, server) ?? found.login.url,
            refreshURL: try resolve(flags.refreshPath, server) ?? found.refresh?.url,
            revocationURL: try resolve(flags.revokePath, server) ?? found.revocation?.url, profileURL: profile,
            fields: fields(flags, base: found.fields), discoveredAt: [document])
        description.login = flags.loginShape ?? found.login.shape
        description.refresh = flags.refreshShape ?? found.refresh?.shape ?? description.refresh
        description.revocation = flags.revocationShape ?? found.revocation?.shape ?? description.revocation
        return description
    }

    /// The OAuth 2 description with the flags applied over `base`, for the token and profile endpoints that the
    /// caller settled.
    private static func oauth2(
        flags: ServerFlags, base: ServerDescription?, token: URL, profile: URL, server: ServerURL, clientSecret: Bool
    ) throws(SwaggerError) -> ServerDescription {
        let clientID = flags.clientID ?? base?.clientID
        // A confidential client authenticates with its id and its secret together (RFC 6749 §2.3.1).
        if clientSecret, clientID == nil {
            throw SwaggerError(
                .usage, "--client-secret-stdin needs --client-id: the secret authenticates that client.")
        }
        var description = ServerDescription(
            kind: .oauth2, loginURL: token,
            refreshURL: try resolve(flags.refreshPath, server) ?? (flags.loginPath != nil ? token : base?.refreshURL)
                ?? token,
            revocationURL: try resolve(flags.revokePath, server) ?? base?.revocationURL, profileURL: profile,
            clientID: clientID, scope: flags.scope ?? base?.scope,
            fields: fields(flags, base: base?.fields ?? .oauth2), usesClientSecret: clientSecret,
            discoveredAt: base?.discoveredAt ?? [])
        description.deviceAuthorizationURL = base?.deviceAuthorizationURL
        description.authorizationURL = base?.authorizationURL
        description.signIn = base?.signIn ?? .password
        shape(&description, flags, base: base)
        return description
    }

    /// The routes a kind's server software puts under the URL it is mounted at (``ServerKind/routes``).
    private static func routes(of kind: ServerKind, under server: ServerURL) throws(SwaggerError) -> (
        login: URL?, refresh: URL?, revocation: URL?, profile: URL?, fields: TokenFields
    ) {
        let routes = kind.routes
        return (
            try resolve(routes?.login, server), try resolve(routes?.refresh, server),
            try resolve(routes?.revocation, server), try resolve(routes?.profile, server), kind.fields
        )
    }

    /// The request shapes the flags give, else the saved description's, else the kind's, which
    /// `description` already has.
    private static func shape(_ description: inout ServerDescription, _ flags: ServerFlags, base: ServerDescription?) {
        description.login = flags.loginShape ?? base?.login ?? description.login
        description.refresh = flags.refreshShape ?? base?.refresh ?? description.refresh
        description.revocation = flags.revocationShape ?? base?.revocation ?? description.revocation
    }

    private static func fields(_ flags: ServerFlags, base: TokenFields) -> TokenFields {
        TokenFields(
            accessToken: flags.accessTokenField ?? base.accessToken,
            refreshToken: flags.refreshTokenField ?? base.refreshToken,
            expiresIn: flags.expiresInField ?? base.expiresIn)
    }

    private static func resolve(_ path: String?, _ server: ServerURL) throws(SwaggerError) -> URL? {
        guard let path else { return nil }
        return try server.resolve(path)
    }
}
