import FoundationEssentials

extension ServerDescription {
    /// Reads the description that `sessions.json` kept with each session before the server registry (its
    /// "dialect"): a kind, four URLs, the token members' names, and the request shapes as the flags wrote them.
    /// - Throws: ``Invalid`` for one that is not such a description.
    package init(legacy: JSONValue, under server: ServerURL) throws(Invalid) {
        guard case .object(let old) = legacy, case .string(let kind)? = old["kind"] else {
            throw Invalid("the session's server description has no kind")
        }
        func text(_ name: String) -> String? {
            if case .string(let value)? = old[name], !value.isEmpty { value } else { nil }
        }
        if kind == "original" {
            try self.init(json: .object(["preset": .string(kind)]), under: server)
            return
        }
        var json: [String: JSONValue] = [
            "login": .object(try Self.legacyLogin(old, text)),
            "profile": .object(["url": .string(text("profileURL") ?? "")]),
        ]
        // The kinds became presets; a custom server was its flags alone.
        if kind != "custom" { json["preset"] = .string(kind) }
        for (step, url, shape) in [("refresh", "refreshURL", "refresh"), ("revocation", "revocationURL", "revocation")]
        {
            guard let address = text(url) else {
                json[step] = .null
                continue
            }
            var members: [String: JSONValue] = ["url": .string(address)]
            if let shape = text(shape) { members["with"] = .string(shape) }
            json[step] = .object(members)
        }
        var client: [String: JSONValue] = [:]
        if let id = text("clientID") { client["id"] = .string(id) }
        if let scope = text("scope") { client["scope"] = .string(scope) }
        if old["usesClientSecret"] == .bool(true) { client["secret"] = .bool(true) }
        if !client.isEmpty { json["client"] = .object(client) }
        for (name, key) in [("authorization", "authorizationURL"), ("deviceAuthorization", "deviceAuthorizationURL")] {
            if let address = text(key) { json[name] = .string(address) }
        }
        if let signIn = text("signIn") { json["signIn"] = .string(signIn) }
        // The documents it was found in, joined by spaces: the first OpenAPI one is the server's document.
        if let found = text("discoveredAt")?.split(separator: " ").first(where: { !$0.contains("/.well-known/") }) {
            json["document"] = .string(String(found))
        }
        try self.init(json: .object(json), under: server)
    }

    /// The login of a description kept before the registry: its URL, the answer's members and the body's shape.
    private static func legacyLogin(_ old: [String: JSONValue], _ text: (String) -> String?) throws(Invalid)
        -> [String: JSONValue]
    {
        var login: [String: JSONValue] = ["url": .string(text("loginURL") ?? "")]
        if case .object(let fields)? = old["fields"] {
            login["answer"] = .object([
                "access": fields["accessToken"] ?? .null, "refresh": fields["refreshToken"] ?? .null,
                "expiresIn": fields["expiresIn"] ?? .null,
            ])
        }
        switch text("login") {
        case "password-grant"?:
            login["body"] = .string("form")
            login["account"] = .string("username")
            login["members"] = .object(["grant_type": .string("password")])
        case let shape? where shape.hasPrefix("json:") || shape.hasPrefix("form:"):
            login["body"] = .string(String(shape.prefix(4)))
            login["account"] = .string(String(shape.dropFirst(5)))
        case let other?:
            throw Invalid("the session's login shape \(other.prefix(40)) is not one swaggerctl wrote")
        case nil:
            break
        }
        return login
    }
}
