import FoundationEssentials
import SessionMachine
import SwaggerDocuments
import SwaggerModel

/// Finding how to talk to a server from the documents it publishes: its OpenID Connect configuration, its RFC 8414
/// metadata, and its OpenAPI document, wherever the frameworks put it or the server says it is. Only the reading is
/// here; the fetching is the owner's.
package enum Discovery {
    /// What the documents a server publishes said of it, as a layer of its description.
    package struct Finding: Sendable, Hashable {
        /// The preset the documents show the server to be: `oauth2` for OAuth metadata, `original` for the bundled
        /// API's own document.
        package var preset: String?
        /// What they named, over the preset.
        package var layer: DescriptionLayer?
        /// The documents that said it.
        package var documents: [URL]
        /// The operations an OpenAPI document described, for the line that says what was chosen.
        package var described: Described?

        package init(
            preset: String? = nil, layer: DescriptionLayer? = nil, documents: [URL], described: Described? = nil
        ) {
            self.preset = preset
            self.layer = layer
            self.documents = documents
            self.described = described
        }
    }

    /// The endpoints one document names.
    package struct Endpoints: Sendable, Hashable {
        /// The token endpoint (the password grant's, and the refresh's).
        package var token: URL?
        /// The refresh endpoint, when it is not the token endpoint (OpenAPI's `refreshUrl`).
        package var refresh: URL?
        /// The OpenID Connect userinfo endpoint.
        package var userinfo: URL?
        /// The RFC 7009 revocation endpoint.
        package var revocation: URL?
        /// The RFC 8628 device authorization endpoint.
        package var deviceAuthorization: URL?
        /// The authorization endpoint, where a browser login begins.
        package var authorization: URL?
        /// `code_challenge_methods_supported`, when the metadata says.
        var challengeMethods: [String]?
        /// `grant_types_supported`, or the grants an OpenAPI document's OAuth 2 flows name.
        package var grantTypes: [String]?
        /// `scopes_supported`.
        var scopes: [String]?
        /// `revocation_endpoint_auth_methods_supported`.
        var revocationAuthentication: [String]?
        /// `token_endpoint_auth_methods_supported`.
        var tokenAuthentication: [String]?
        /// `mtls_endpoint_aliases` (RFC 8705 §5): where a client proven by its certificate goes instead.
        package var mtls = MTLSAliases()

        package init(
            token: URL? = nil, refresh: URL? = nil, userinfo: URL? = nil, revocation: URL? = nil,
            deviceAuthorization: URL? = nil, authorization: URL? = nil, challengeMethods: [String]? = nil,
            grantTypes: [String]? = nil, scopes: [String]? = nil, revocationAuthentication: [String]? = nil,
            tokenAuthentication: [String]? = nil, mtls: MTLSAliases = MTLSAliases()
        ) {
            self.token = token
            self.refresh = refresh
            self.userinfo = userinfo
            self.revocation = revocation
            self.deviceAuthorization = deviceAuthorization
            self.authorization = authorization
            self.challengeMethods = challengeMethods
            self.grantTypes = grantTypes
            self.scopes = scopes
            self.revocationAuthentication = revocationAuthentication
            self.tokenAuthentication = tokenAuthentication
            self.mtls = mtls
        }

        /// These, with what `other` names and these do not.
        package func merging(_ other: Endpoints) -> Endpoints {
            Endpoints(
                token: token ?? other.token, refresh: refresh ?? other.refresh, userinfo: userinfo ?? other.userinfo,
                revocation: revocation ?? other.revocation,
                deviceAuthorization: deviceAuthorization ?? other.deviceAuthorization,
                authorization: authorization ?? other.authorization,
                challengeMethods: challengeMethods ?? other.challengeMethods,
                grantTypes: grantTypes ?? other.grantTypes,
                scopes: scopes ?? other.scopes,
                revocationAuthentication: revocationAuthentication ?? other.revocationAuthentication,
                tokenAuthentication: tokenAuthentication ?? other.tokenAuthentication,
                mtls: mtls == MTLSAliases() ? other.mtls : mtls)
        }

        package var isEmpty: Bool { token == nil && refresh == nil && userinfo == nil && revocation == nil }

        /// Where a browser signs in, and the grants offered, in the description language.
        var browserJSON: JSONValue {
            var json: [String: JSONValue] = [:]
            if let authorization { json["authorization"] = .string(authorization.absoluteString) }
            if let grantTypes { json["grantTypes"] = .array(grantTypes.map(JSONValue.string)) }
            return .object(json)
        }

        /// What the metadata says, in the description language, for a client with a secret (`confidential`) or
        /// without: the endpoints, the grants, the scope to ask for (OpenID Connect's `openid`, with `profile` and
        /// `email` where offered, which say who signs in), and how the revocation authenticates the client.
        package func json(confidential: Bool) -> JSONValue {
            var json: [String: JSONValue] = [:]
            func step(_ name: String, _ url: URL?) {
                if let url { json[name] = .object(["url": .string(url.absoluteString)]) }
            }
            step("login", token)
            step("refresh", refresh ?? token)
            step("profile", userinfo)
            if let revocation {
                var members: [String: JSONValue] = ["url": .string(revocation.absoluteString)]
                if let method = Self.revocationMethod(revocationAuthentication, confidential: confidential) {
                    members["client"] = .string(method.rawValue)
                }
                json["revocation"] = .object(members)
            }
            if let authorization { json["authorization"] = .string(authorization.absoluteString) }
            if let deviceAuthorization { json["deviceAuthorization"] = .string(deviceAuthorization.absoluteString) }
            if let grantTypes { json["grantTypes"] = .array(grantTypes.map(JSONValue.string)) }
            var client: [String: JSONValue] = [:]
            if let scopes, scopes.contains("openid") {
                client["scope"] = .string(
                    ["openid", "profile", "email"].filter(scopes.contains).joined(separator: " "))
            }
            // A secret goes by HTTP Basic unless the server takes it only in the form (RFC 8414 §2).
            if confidential, tokenAuthentication == [ClientAuthentication.post.rawValue] {
                client["authentication"] = .string(ClientAuthentication.post.rawValue)
            }
            if !client.isEmpty { json["client"] = .object(client) }
            var aliases: [String: JSONValue] = [:]
            if let token = mtls.token { aliases["token"] = .string(token.absoluteString) }
            if let revocation = mtls.revocation { aliases["revocation"] = .string(revocation.absoluteString) }
            if !aliases.isEmpty { json["mtls"] = .object(aliases) }
            return .object(json)
        }

        /// The way a revocation authenticates the client, of those the provider lists: a client with a secret
        /// sends it as RFC 6749 prefers, by HTTP Basic, else in the form; one without, its `client_id` alone where
        /// the provider takes that, else the access token as the bearer (Glewlwyd).
        static func revocationMethod(_ listed: [String]?, confidential: Bool) -> ClientAuthentication? {
            guard let listed else { return nil }
            let order: [ClientAuthentication] = confidential ? [.basic, .post, .bearer] : [.none, .bearer]
            return order.first { listed.contains($0.rawValue) }
        }
    }

    /// The OAuth 2 metadata documents for an issuer, in the order they are read: OpenID Connect Discovery
    /// 1.0 §4 (`{issuer}/.well-known/openid-configuration`), then RFC 8414 §3, whose well-known part goes
    /// between the host and the issuer's path, and its form under the issuer's path, which servers mounted
    /// under a prefix answer; and last, for an API under a path whose authorization server is the whole host
    /// (`-s https://host/api`), both documents at the origin.
    /// - Parameter issuer: The server's URL, taken as the issuer.
    /// - Returns: The documents' URLs, without repeats.
    static func metadataDocuments(for issuer: ServerURL) -> [URL] {
        let path = issuer.url.path(percentEncoded: true)
        let origin = ServerURL.origin(of: issuer.url)?.absoluteString ?? issuer.string
        let candidates = [
            issuer.string + "/.well-known/openid-configuration",
            origin + "/.well-known/oauth-authorization-server" + path,
            issuer.string + "/.well-known/oauth-authorization-server",
            origin + "/.well-known/openid-configuration",
            origin + "/.well-known/oauth-authorization-server",
        ]
        return unique(candidates.compactMap(URL.init(string:)))
    }

    /// Where the widely used frameworks publish their OpenAPI document, by default or as their documentation sets
    /// it up, the commonest first:
    /// - `/openapi.json`: FastAPI, Django Ninja (under its API's path), APIFlask, Flask-Smorest, Connexion, Huma;
    ///   `/api/openapi.json`: Django Ninja's, mounted at `api/` as its tutorial mounts it;
    /// - `/schema/openapi.json`: Litestar;
    /// - `/api/schema/` and `/schema/`: drf-spectacular;
    /// - `/swagger.json`: drf-yasg, Flask-RESTX, hapi-swagger, swagger-jsdoc's examples;
    /// - `/swagger/v1/swagger.json`: Swashbuckle and NSwag; `/openapi/v1.json`: ASP.NET Core's own;
    /// - `/v3/api-docs`: springdoc; `/api-json`: NestJS; `/swagger/doc.json`: swaggo;
    /// - `/api/v1/_openapi`: Flask-AppBuilder; `/api-docs/v1/swagger.yaml`: rswag; `/openapi.yaml`: Huma, Connexion;
    ///   `/api-docs`: swagger-jsdoc's and Express apps';
    /// - `/__api__`: Cornice (Kinto, under its `/v1`); `/_allauth/openapi.json`: django-allauth's headless API.
    ///
    /// Each is tried under the server's URL only: what lies outside the path the person typed may be another
    /// API, or someone else's, on the same host. A framework's path that begins with the end of the typed one is
    /// joined to it, not appended: Flask-AppBuilder's `/api/v1/_openapi` under `…/api/v1` is `…/api/v1/_openapi`
    /// (and, appended, `…/api/v1/api/v1/_openapi` too).
    /// - Returns: The candidates, in the order they are tried: `named`, the one a description names, first.
    package static func openAPIDocuments(for server: ServerURL, named: URL? = nil) -> [URL] {
        let paths = [
            "/openapi.json", "/schema/openapi.json", "/api/schema/", "/api/openapi.json", "/schema/", "/swagger.json",
            "/swagger/v1/swagger.json", "/openapi/v1.json", "/v3/api-docs", "/api-json", "/swagger/doc.json",
            "/api/v1/_openapi", "/openapi.yaml", "/api-docs/v1/swagger.yaml", "/api-docs", "/__api__",
            "/_allauth/openapi.json",
        ]
        return unique((named.map { [$0] } ?? []) + paths.flatMap { joined(server, $0) }.compactMap(URL.init(string:)))
    }

    /// `path` under `server`: joined where `path` begins with the segments that `server`'s path ends with, and
    /// appended.
    static func joined(_ server: ServerURL, _ path: String) -> [String] {
        let joined = server.joining(path)
        let appended = server.string + path
        return joined == appended ? [appended] : [joined, appended]
    }

    /// Reads an OpenID Connect configuration or RFC 8414 metadata document. Relative URLs are read against
    /// `url`, where it came from.
    /// - Returns: What it names; `nil` when it is not such a document.
    package static func metadata(_ data: Data, at url: URL) -> Endpoints? {
        guard case .object(let members)? = JSONValue(parsing: data) else { return nil }
        func endpoint(_ name: String) -> URL? {
            guard case .string(let text)? = members[name] else { return nil }
            return APIDocument.resolve(text, against: url)
        }
        func strings(_ name: String) -> [String]? {
            guard case .array(let values)? = members[name] else { return nil }
            return values.compactMap { if case .string(let value) = $0 { value } else { nil } }
        }
        let endpoints = Endpoints(
            token: endpoint("token_endpoint"), userinfo: endpoint("userinfo_endpoint"),
            revocation: endpoint("revocation_endpoint"),
            deviceAuthorization: endpoint("device_authorization_endpoint"),
            authorization: endpoint("authorization_endpoint"),
            challengeMethods: strings("code_challenge_methods_supported"), grantTypes: strings("grant_types_supported"),
            scopes: strings("scopes_supported"),
            revocationAuthentication: strings("revocation_endpoint_auth_methods_supported"),
            tokenAuthentication: strings("token_endpoint_auth_methods_supported"))
        var aliased = endpoints
        if case .object(let aliases)? = members["mtls_endpoint_aliases"] {
            func alias(_ name: String) -> URL? {
                guard case .string(let text)? = aliases[name] else { return nil }
                return APIDocument.resolve(text, against: url)
            }
            aliased.mtls = MTLSAliases(token: alias("token_endpoint"), revocation: alias("revocation_endpoint"))
        }
        return endpoints.isEmpty ? nil : aliased
    }

    /// Reads an OpenAPI 3 document's `oauth2` security scheme with a password flow (`flows.password.tokenUrl`
    /// and `refreshUrl`), or a Swagger 2 document's (`flow: password`, `tokenUrl`), and one with an authorization
    /// code flow (`authorizationUrl`), for a browser login. Relative URLs are read
    /// against the document's first server, else the document's own URL, `url`. `data` may be JSON or YAML.
    /// - Returns: The token endpoint, and the refresh endpoint if it is another; `nil` when the document has
    ///   no such scheme or is not an API document.
    package static func openAPI(_ data: Data, at url: URL) -> Endpoints? {
        guard case .object(let document)? = DocumentText.value(of: data) else { return nil }
        var base = url
        if case .array(let servers)? = document["servers"], case .object(let first)? = servers.first,
            case .string(let server)? = first["url"], let resolved = APIDocument.resolve(server, against: url)
        {
            // A server URL names a folder: "token" under "https://host/api" is "https://host/api/token".
            base = resolved.absoluteString.hasSuffix("/") ? resolved : resolved.appending(path: "")
        }
        let schemes: [String: JSONValue]
        if case .object(let components)? = document["components"],
            case .object(let found)? = components["securitySchemes"]
        {
            schemes = found
        } else if case .object(let found)? = document["securityDefinitions"] {
            schemes = found
        } else {
            return nil
        }
        // The first OAuth 2 scheme's flow of this kind: OpenAPI 3's `flows.<name>`, or Swagger 2's `flow: <older>`.
        func flow(_ name: String, swagger2 older: String) -> [String: JSONValue]? {
            for key in schemes.keys.sorted() {
                guard case .object(let scheme)? = schemes[key], scheme["type"] == .string("oauth2") else { continue }
                if case .object(let flows)? = scheme["flows"], case .object(let flow)? = flows[name] { return flow }
                if scheme["flow"] == .string(older) { return scheme }
            }
            return nil
        }
        func address(_ member: String, of flow: [String: JSONValue]?) -> URL? {
            guard case .string(let text)? = flow?[member] else { return nil }
            return APIDocument.resolve(text, against: base)
        }
        // A browser login's endpoints, from an authorization code flow.
        let code = flow("authorizationCode", swagger2: "accessCode")
        var browser = Endpoints()
        if let authorization = address("authorizationUrl", of: code), let token = address("tokenUrl", of: code) {
            browser = Endpoints(token: token, authorization: authorization, grantTypes: ["authorization_code"])
        }
        let password = flow("password", swagger2: "password")
        if let token = address("tokenUrl", of: password) {
            return Endpoints(
                token: token, refresh: address("refreshUrl", of: password), authorization: browser.authorization,
                grantTypes: ["password"] + (browser.grantTypes ?? []))
        }
        return browser.token == nil ? nil : browser
    }

    /// The documents a `Link` header says describe the service (`rel="service-desc"`, RFC 8631), read against
    /// `url`, the address it came from.
    static func serviceDescriptions(link: String?, at url: URL) -> [URL] {
        guard let link, let target = LinkHeader.target(of: "service-desc", in: link) else { return [] }
        return APIDocument.resolve(target, against: url).map { [$0] } ?? []
    }

    /// The documents an API catalog names (RFC 9727's `/.well-known/api-catalog`, a linkset of RFC 9264): every
    /// `service-desc` link of every entry, read against the catalog's address.
    package static func catalog(_ data: Data, at url: URL) -> [URL] {
        guard case .object(let root)? = JSONValue(parsing: data),
            case .array(let entries)? = root["linkset"]
        else { return [] }
        var found: [URL] = []
        for case .object(let entry) in entries.prefix(100) {
            guard case .array(let links)? = entry["service-desc"] else { continue }
            for case .object(let link) in links.prefix(10) {
                if case .string(let href)? = link["href"], let target = APIDocument.resolve(href, against: url) {
                    found.append(target)
                }
            }
        }
        return unique(found)
    }

    static func unique(_ urls: [URL]) -> [URL] {
        var seen: Set<String> = []
        return urls.filter { seen.insert($0.absoluteString).inserted }
    }
}
