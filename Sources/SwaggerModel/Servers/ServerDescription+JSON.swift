import FoundationEssentials

/// The description language: a server's description as JSON, the same in `servers.json`, a `--server-file`, and
/// what `server export` prints.
///
/// ```json
/// {
///   "preset": "simplejwt",
///   "login": {"url": "/token/", "body": "json", "account": "username", "email": "email", "password": "password",
///             "members": {"provider": "db"}, "answer": {"access": "access", "refresh": "refresh"}},
///   "token": "Authorization: Token",
///   "refresh": {"url": "/token/refresh/", "with": "json:refresh"},
///   "revocation": {"url": "/token/blacklist/", "with": "json:refresh"},
///   "profile": {"url": "/users/me/"},
///   "client": {"id": "my-cli", "scope": "openid", "secret": false}
/// }
/// ```
///
/// A description that names a preset changes only what it names. A path is under the server's URL; a full URL
/// may name another host. `"refresh": null` and `"revocation": null` say the server has no such step.
extension ServerDescription {
    /// Why a description cannot be read: the member, and what is wrong with it.
    package struct Invalid: Error, Sendable, Hashable {
        package var reason: String
        /// Whether a part is missing that another layer (a document, a flag) could give, rather than wrong.
        package var isMissing = false

        package init(_ reason: String, isMissing: Bool = false) {
            self.reason = reason
            self.isMissing = isMissing
        }
    }

    /// The members of the language at the top of a description.
    package static let members: Set<String> = [
        "preset", "login", "token", "refresh", "revocation", "profile", "client", "authorization",
        "deviceAuthorization", "grantTypes", "signIn", "document", "paging", "allowedOrigins", "mtls",
    ]

    /// Reads a description in the description language, its paths under `server`.
    /// - Throws: ``Invalid`` naming the first member that is missing or not what the language takes.
    package init(json: JSONValue, under server: ServerURL) throws(Invalid) {
        guard case .object(var members) = json else { throw Invalid("a description is a JSON object") }
        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw Invalid("\"\(unknown.prefix(60))\" is not part of a server description")
        }
        if let name = members["preset"] {
            guard case .string(let name) = name, let preset = ServerPresets.named(name) else {
                throw Invalid(
                    "preset must be one of \(ServerPresets.names.joined(separator: ", ")); got \(name.compactJSON.prefix(60))"
                )
            }
            if case .object(let merged) = preset.json.merging(.object(members)) { members = merged }
        }
        let reader = Reader(members: members, server: server)
        let login = try reader.object("login")
        let profileMembers = try reader.object("profile")
        let shape: LoginShape = try reader.enumeration("with", in: login, of: "login") ?? .post
        // An HTTP Basic login has no request of its own: the profile's checks the credentials.
        var loginURL = try reader.url("url", in: login, of: "login")
        if shape == .basic, loginURL == nil {
            loginURL = try reader.requiredURL("url", in: profileMembers, of: "profile")
        }
        if loginURL == nil { loginURL = try reader.requiredURL("url", in: login, of: "login") }
        guard let loginURL else { throw Invalid("login.url is missing", isMissing: true) }
        var step = LoginStep(url: loginURL)
        step.shape = shape
        step.encoding = try reader.enumeration("body", in: login, of: "login") ?? .json
        step.account = try reader.string("account", in: login, of: "login") ?? step.account
        step.email = try reader.string("email", in: login, of: "login")
        step.password = try reader.string("password", in: login, of: "login") ?? step.password
        step.appID = try reader.string("appId", in: login, of: "login")
        switch login?["members"] {
        case .object(let extra)?: step.members = extra
        case nil, .null?: break
        default: throw Invalid("login.members must be an object of members and their values")
        }
        // The app id's member carries the session's app id, whatever value a document gave it.
        if let appID = step.appID { step.members[appID] = nil }
        step.answer = try reader.fields(login?["answer"], of: "login.answer") ?? .oauth2
        step.refusals = try reader.statuses(login?["refusals"], of: "login.refusals")
        var profile = ProfileStep(url: try reader.requiredURL("url", in: profileMembers, of: "profile"))
        profile.unwrap = try reader.string("unwrap", in: profileMembers, of: "profile")
        profile.labels = try reader.labels(profileMembers?["labels"])
        self.init(login: step, profile: profile)
        if case .string(let name)? = members["preset"] { preset = name }
        if let text = try reader.string("token") {
            guard let use = TokenUse(text: text) else {
                throw Invalid(
                    "token must be a header and its scheme, such as \"Authorization: Bearer\"; got \(text.prefix(60))")
            }
            token = use
        }
        if let refreshMembers = try reader.object("refresh") {
            let shape: RefreshShape =
                try reader.shape("with", in: refreshMembers, of: "refresh") ?? .json(field: "refresh_token")
            // A refresh goes where the login went unless it says otherwise, as OAuth 2's token endpoint takes both.
            var refresh = RefreshStep(
                url: try reader.url("url", in: refreshMembers, of: "refresh") ?? step.url, shape: shape)
            if let text = try reader.string("token", in: refreshMembers, of: "refresh") {
                guard let use = TokenUse(text: text) else {
                    throw Invalid("refresh.token must be a header and its scheme")
                }
                refresh.token = use
            }
            refresh.answer = try reader.fields(refreshMembers["answer"], of: "refresh.answer")
            refresh.appID = try reader.string("appId", in: refreshMembers, of: "refresh")
            self.refresh = refresh
        }
        // A revocation says how it is sent before anything says where (OAuth 2's preset, before its metadata): until
        // then there is none.
        if let revocationMembers = try reader.object("revocation"),
            let url = try reader.url("url", in: revocationMembers, of: "revocation")
        {
            let shape: RevocationShape =
                try reader.shape("with", in: revocationMembers, of: "revocation") ?? .json(field: "refresh_token")
            var step = RevocationStep(
                url: url, shape: shape,
                clientAuthentication: try reader.enumeration("client", in: revocationMembers, of: "revocation"))
            step.revoked = try reader.statuses(revocationMembers["revoked"], of: "revocation.revoked", from: 200)
            if revocationMembers["gone"] != nil {
                step.gone = try reader.statuses(revocationMembers["gone"], of: "revocation.gone", from: 200)
            }
            revocation = step
        }
        if let client = try reader.object("client") {
            clientID = try reader.string("id", in: client, of: "client")
            scope = try reader.string("scope", in: client, of: "client")
            clientAuthentication = try reader.enumeration("authentication", in: client, of: "client")
            switch client["secret"] {
            case nil, .null?: break
            case .bool(let secret)?: usesClientSecret = secret
            default: throw Invalid("client.secret must be true or false")
            }
        }
        authorizationURL = try reader.url("authorization", in: members, of: nil)
        deviceAuthorizationURL = try reader.url("deviceAuthorization", in: members, of: nil)
        if let mtls = try reader.object("mtls") {
            self.mtls = MTLSAliases(
                token: try reader.url("token", in: mtls, of: "mtls"),
                revocation: try reader.url("revocation", in: mtls, of: "mtls"))
        }
        document = try reader.url("document", in: members, of: nil)
        if let types = members["grantTypes"], types != .null {
            guard case .array(let values) = types else { throw Invalid("grantTypes must be an array of names") }
            grantTypes = try values.map { (value) throws(Invalid) in
                guard case .string(let name) = value else { throw Invalid("grantTypes must be an array of names") }
                return name
            }
        }
        signIn = try reader.enumeration("signIn", in: members, of: nil) ?? .password
        if let paging = try reader.object("paging") {
            let read = Paging(
                page: try reader.string("page", in: paging, of: "paging"),
                cursor: try reader.string("cursor", in: paging, of: "paging"))
            self.paging = read == Paging() ? nil : read
        }
        allowedOrigins = try reader.origins("allowedOrigins")
    }

    /// The description as its preset and what differs from it, as the registry keeps it and `server export` writes
    /// it: the preset's name, then each member whose value is not the preset's (`null` for one the preset has and
    /// this does not). Read back under `server`, it is this description; without a preset, it is ``json(relativeTo:)``.
    package func presetJSON(under server: ServerURL) -> JSONValue {
        let whole = json(relativeTo: server)
        guard let preset, let base = try? ServerDescription(json: ["preset": .string(preset)], under: server) else {
            return whole
        }
        return Self.difference(whole, from: base.json(relativeTo: server)).merging(["preset": .string(preset)])
    }

    /// What `value` says that `base` does not: objects member by member (a member `base` has and `value` has not is
    /// `null`), anything else whole where it differs.
    private static func difference(_ value: JSONValue, from base: JSONValue) -> JSONValue {
        guard case .object(let members) = value, case .object(let baseMembers) = base else { return value }
        var changed: [String: JSONValue] = [:]
        for (name, member) in members where baseMembers[name] != member {
            changed[name] = baseMembers[name].map { difference(member, from: $0) } ?? member
        }
        for name in baseMembers.keys where members[name] == nil { changed[name] = .null }
        return .object(changed)
    }

    /// The description in the description language. A URL under `server`, when given, is written as a path under
    /// it; every other, and every one when `server` is `nil`, whole.
    package func json(relativeTo server: ServerURL? = nil) -> JSONValue {
        let origins: [String: JSONValue] =
            allowedOrigins.isEmpty ? [:] : ["allowedOrigins": .array(allowedOrigins.map { .string($0.string) })]
        func address(_ url: URL) -> JSONValue {
            let text = url.absoluteString
            guard let base = server?.string, text.hasPrefix(base + "/") else { return .string(text) }
            let path = String(text.dropFirst(base.count))
            // A path that begins with two slashes would be read back as a host.
            return path.hasPrefix("//") ? .string(text) : .string(path)
        }
        func fields(_ fields: TokenFields) -> JSONValue {
            var members: [String: JSONValue] = [
                "access": .string(fields.accessToken), "refresh": .string(fields.refreshToken),
                "expiresIn": .string(fields.expiresIn),
            ]
            if let username = fields.username { members["username"] = .string(username) }
            if fields.unit != .seconds { members["unit"] = .string(fields.unit.rawValue) }
            return .object(members)
        }
        var loginMembers: [String: JSONValue] = [
            "url": address(login.url), "body": .string(login.encoding.rawValue), "account": .string(login.account),
            "password": .string(login.password), "answer": fields(login.answer),
        ]
        if login.shape != .post { loginMembers["with"] = .string(login.shape.rawValue) }
        if let email = login.email { loginMembers["email"] = .string(email) }
        if !login.members.isEmpty { loginMembers["members"] = .object(login.members) }
        if let appID = login.appID { loginMembers["appId"] = .string(appID) }
        if !login.refusals.isEmpty { loginMembers["refusals"] = .array(login.refusals.map { .integer(Int64($0)) }) }
        var members: [String: JSONValue] = ["login": .object(loginMembers), "token": .string(token.text)]
        if let preset { members["preset"] = .string(preset) }
        if let refresh {
            var step: [String: JSONValue] = ["url": address(refresh.url), "with": .string(refresh.shape.text)]
            if let use = refresh.token { step["token"] = .string(use.text) }
            if let answer = refresh.answer { step["answer"] = fields(answer) }
            if let appID = refresh.appID { step["appId"] = .string(appID) }
            members["refresh"] = .object(step)
        } else {
            members["refresh"] = .null
        }
        if let revocation {
            var step: [String: JSONValue] = ["url": address(revocation.url), "with": .string(revocation.shape.text)]
            if let client = revocation.clientAuthentication { step["client"] = .string(client.rawValue) }
            if !revocation.revoked.isEmpty { step["revoked"] = .array(revocation.revoked.map { .integer(Int64($0)) }) }
            if revocation.gone != [410] { step["gone"] = .array(revocation.gone.map { .integer(Int64($0)) }) }
            members["revocation"] = .object(step)
        } else {
            members["revocation"] = .null
        }
        var profileMembers: [String: JSONValue] = ["url": address(profile.url)]
        if let unwrap = profile.unwrap { profileMembers["unwrap"] = .string(unwrap) }
        if !profile.labels.isEmpty {
            profileMembers["labels"] = .array(
                profile.labels.map { label in
                    .array([.string(label.field), .string(label.label)] + (label.none.map { [$0] } ?? []))
                })
        }
        members["profile"] = .object(profileMembers)
        if clientID != nil || scope != nil || usesClientSecret || clientAuthentication != nil {
            var client: [String: JSONValue] = ["secret": .bool(usesClientSecret)]
            if let clientID { client["id"] = .string(clientID) }
            if let scope { client["scope"] = .string(scope) }
            if let clientAuthentication { client["authentication"] = .string(clientAuthentication.rawValue) }
            members["client"] = .object(client)
        }
        if mtls != MTLSAliases() {
            var aliases: [String: JSONValue] = [:]
            if let token = mtls.token { aliases["token"] = address(token) }
            if let revocation = mtls.revocation { aliases["revocation"] = address(revocation) }
            members["mtls"] = .object(aliases)
        }
        if let authorizationURL { members["authorization"] = address(authorizationURL) }
        if let deviceAuthorizationURL { members["deviceAuthorization"] = address(deviceAuthorizationURL) }
        if let document { members["document"] = address(document) }
        if let grantTypes { members["grantTypes"] = .array(grantTypes.map(JSONValue.string)) }
        if signIn != .password { members["signIn"] = .string(signIn.rawValue) }
        if let paging { members["paging"] = paging.json }
        members.merge(origins) { $1 }
        return .object(members)
    }
}

extension JSONValue {
    /// `other` over this value: objects are merged member by member, each of `other`'s members over this one's;
    /// anything else, `null` included, is replaced.
    package func merging(_ other: JSONValue) -> JSONValue {
        guard case .object(var members) = self, case .object(let changes) = other else { return other }
        for (name, change) in changes {
            members[name] = members[name].map { $0.merging(change) } ?? change
        }
        return .object(members)
    }
}

/// Reads the members of a description, naming the one that is wrong.
private struct Reader {
    let members: [String: JSONValue]
    let server: ServerURL

    /// A step's object; `nil` when it is absent or `null`.
    func object(_ name: String) throws(ServerDescription.Invalid) -> [String: JSONValue]? {
        switch members[name] {
        case .object(let object)?: return object
        case nil, .null?: return nil
        default: throw ServerDescription.Invalid("\(name) must be an object")
        }
    }

    func string(_ name: String, in object: [String: JSONValue]? = nil, of step: String? = nil)
        throws(ServerDescription.Invalid) -> String?
    {
        switch (object ?? members)[name] {
        case nil, .null?: return nil
        case .string(let text)? where !text.isEmpty && text.count <= 2048: return text
        default: throw ServerDescription.Invalid("\(Self.path(step, name)) must be a string")
        }
    }

    func requiredURL(_ name: String, in object: [String: JSONValue]?, of step: String)
        throws(ServerDescription.Invalid) -> URL
    {
        guard let url = try url(name, in: object, of: step) else {
            throw ServerDescription.Invalid("\(step).\(name) is missing: where the \(step) is sent", isMissing: true)
        }
        return url
    }

    func url(_ name: String, in object: [String: JSONValue]?, of step: String?)
        throws(ServerDescription.Invalid) -> URL?
    {
        guard let text = try string(name, in: object, of: step) else { return nil }
        do throws(SwaggerError) {
            return try server.resolve(text)
        } catch {
            throw ServerDescription.Invalid("\(Self.path(step, name)): \(error.message)")
        }
    }

    /// A list of origins, each `https://host[:port]` or a bare host, which is `https://host`.
    func origins(_ name: String) throws(ServerDescription.Invalid) -> [ServerURL] {
        switch members[name] {
        case nil, .null?: return []
        case .array(let values)? where values.count <= 64:
            var origins: [ServerURL] = []
            for value in values {
                guard case .string(let text) = value, let origin = ServerURL.allowedOrigin(text) else {
                    throw ServerDescription.Invalid("\(name) must be a list of origins, such as \"https://host\"")
                }
                if !origins.contains(origin) { origins.append(origin) }
            }
            return origins
        default: throw ServerDescription.Invalid("\(name) must be a list of origins, such as \"https://host\"")
        }
    }

    func enumeration<Value: RawRepresentable<String>>(
        _ name: String, in object: [String: JSONValue]?, of step: String?
    ) throws(ServerDescription.Invalid) -> Value? {
        guard let text = try string(name, in: object, of: step) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw ServerDescription.Invalid("\(Self.path(step, name)) cannot be \(text.prefix(60))")
        }
        return value
    }

    func shape<Shape: TextShape>(_ name: String, in object: [String: JSONValue], of step: String)
        throws(ServerDescription.Invalid) -> Shape?
    {
        guard let text = try string(name, in: object, of: step) else { return nil }
        guard let shape = Shape(text: text) else {
            throw ServerDescription.Invalid("\(step).\(name) cannot be \(text.prefix(60))")
        }
        return shape
    }

    func fields(_ value: JSONValue?, of path: String) throws(ServerDescription.Invalid) -> TokenFields? {
        guard let value, value != .null else { return nil }
        guard case .object(let names) = value else { throw ServerDescription.Invalid("\(path) must be an object") }
        func name(_ key: String, _ fallback: String) throws(ServerDescription.Invalid) -> String {
            switch names[key] {
            case nil, .null?: return fallback
            case .string(let text)? where !text.isEmpty: return text
            default: throw ServerDescription.Invalid("\(path).\(key) must be a member's name")
            }
        }
        let oauth2 = TokenFields.oauth2
        var fields = TokenFields(
            accessToken: try name("access", oauth2.accessToken), refreshToken: try name("refresh", oauth2.refreshToken),
            expiresIn: try name("expiresIn", oauth2.expiresIn))
        if names["username"] != nil, names["username"] != .null { fields.username = try name("username", "") }
        switch names["unit"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let unit = LifetimeUnit(rawValue: text) else {
                throw ServerDescription.Invalid("\(path).unit must be \"s\" or \"ms\"")
            }
            fields.unit = unit
        default: throw ServerDescription.Invalid("\(path).unit must be \"s\" or \"ms\"")
        }
        return fields
    }

    func statuses(_ value: JSONValue?, of path: String, from lowest: Int = 400) throws(ServerDescription.Invalid)
        -> [Int]
    {
        guard let value, value != .null else { return [] }
        guard case .array(let values) = value, values.count <= 32 else {
            throw ServerDescription.Invalid("\(path) must be an array")
        }
        return try values.map { (value) throws(ServerDescription.Invalid) in
            guard case .integer(let status) = value, (Int64(lowest)..<500).contains(status) else {
                throw ServerDescription.Invalid("\(path) holds HTTP statuses from \(lowest) to 499")
            }
            return Int(status)
        }
    }

    func labels(_ value: JSONValue?) throws(ServerDescription.Invalid) -> [ProfileLabel] {
        guard let value, value != .null else { return [] }
        let wrong = ServerDescription.Invalid("profile.labels must be an array of [field, label] pairs")
        guard case .array(let entries) = value else { throw wrong }
        return try entries.map { (entry) throws(ServerDescription.Invalid) in
            guard case .array(let parts) = entry, parts.count == 2 || parts.count == 3,
                case .string(let field) = parts[0], case .string(let label) = parts[1]
            else { throw wrong }
            return ProfileLabel(field, label, none: parts.count == 3 ? parts[2] : nil)
        }
    }

    private static func path(_ step: String?, _ name: String) -> String {
        step.map { "\($0).\(name)" } ?? name
    }
}

/// A step's shape, written as text.
private protocol TextShape {
    init?(text: String)
}

extension RefreshShape: TextShape {}
extension RevocationShape: TextShape {}
