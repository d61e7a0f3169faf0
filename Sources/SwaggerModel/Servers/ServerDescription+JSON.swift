import FoundationEssentials

/// The description language: a server's description as JSON, the same in `servers.json`, a `--server-file`, and
/// what `server export` prints. Each step is a request written as data, and what its answer yields:
///
/// ```json
/// {
///   "login": {"request": {"method": "POST", "url": "/v3/auth/tokens", "json": {…"{account}"…"{password}"…}},
///             "yields": {"access": "$response.header.X-Subject-Token",
///                        "expiresAt": "$response.body#/token/expires_at", "user_id": "$response.body#/token/user/id"},
///             "refused": ["$statusCode == 400 && $response.body#/code == 3"]},
///   "token": "X-Auth-Token",
///   "refresh": null,
///   "revocation": {"requests": [{"method": "DELETE", "url": "/v3/auth/tokens", "token": "{access}",
///                                "headers": {"X-Subject-Token": "{access}"}}]},
///   "profile": {"request": {"url": "/v3/users/{user_id}", "token": "{access}"}, "unwrap": "user"}
/// }
/// ```
///
/// The members the language had before steps were requests (`login.url`, `login.account`, `refresh.with`, …) are
/// still read, as edits of these requests (``ServerDescription/Shorthand``): flags and documents say what they
/// say in them, and what is kept and exported is the requests. A description that names a preset changes only what
/// it names. A path is under the server's URL; a full URL may name another host. `"refresh": null` and
/// `"revocation": null` say the server has no such step.
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
        try self.init(layers: [json], under: server)
    }

    /// Reads a description made of layers, each over the one before: what a document says, a file, the flags. The
    /// preset that the last of them to name one names lies under them all. A layer's requests go over the ones before
    /// member by member; what it says in the members of before edits them.
    /// - Throws: ``Invalid`` naming the first member that is missing or not what the language takes.
    package init(layers: [JSONValue], under server: ServerURL) throws(Invalid) {
        var canonical = JSONValue.object([:])
        if let name = layers.compactMap({ $0[path: "preset"] }).last {
            guard case .string(let name) = name, let preset = ServerPresets.named(name) else {
                throw Invalid(
                    "preset must be one of \(ServerPresets.names.joined(separator: ", ")); got \(name.compactJSON.prefix(60))"
                )
            }
            canonical = preset.json.merging(["preset": .string(name)])
        }
        for layer in layers {
            canonical = try Self.apply(layer, to: canonical, under: server)
        }
        try self.init(canonical: canonical, under: server)
    }

    /// `layer` over `canonical`, a description in the language's requests that may not be whole yet.
    static func apply(_ layer: JSONValue, to canonical: JSONValue, under server: ServerURL) throws(Invalid)
        -> JSONValue
    {
        guard case .object(let members) = layer else { throw Invalid("a description is a JSON object") }
        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw Invalid("\"\(unknown.prefix(60))\" is not part of a server description")
        }
        var canonical = canonical
        // A step's request that names where it goes is a request, in place of the one before; one that does not
        // edits it, as `--set login.request.headers.X=…` does.
        for step in ["login", "refresh", "profile"] {
            guard case .object(let request)? = members[step]?[path: "request"], request["url"] != nil,
                case .object(var before)? = canonical[path: step]
            else { continue }
            before["request"] = nil
            if case .object(var all) = canonical {
                all[step] = .object(before)
                canonical = .object(all)
            }
        }
        let (requests, edits) = Shorthand.split(members)
        canonical = canonical.merging(.object(requests))
        return try Shorthand.apply(edits, to: canonical, under: server)
    }

    /// Reads a description whose steps are all requests, as ``apply(_:to:under:)`` leaves one.
    private init(canonical json: JSONValue, under server: ServerURL) throws(Invalid) {
        guard case .object(let members) = json else { throw Invalid("a description is a JSON object") }
        let reader = Reader(members: members, server: server)
        let loginMembers = try reader.object("login") ?? [:]
        let profileMembers = try reader.object("profile") ?? [:]
        // A server that takes only the tokens people bring has no login to send.
        let signIn = try reader.enumeration("signIn", in: members, of: nil) ?? SignIn.password
        let login = try reader.login(loginMembers, signIn: signIn)
        self.init(login: login, profile: try reader.profile(profileMembers))
        if case .string(let name)? = members["preset"] { preset = name }
        token = try reader.token(members["token"]) ?? token
        refresh = try reader.refresh(after: login.request) ?? refresh
        revocation = try reader.revocation() ?? revocation
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
        self.signIn = signIn
        paging = try reader.paging()
        allowedOrigins = try reader.origins("allowedOrigins")
    }

    /// The description in the description language, as the registry keeps it, `server export` writes it and a layer
    /// reads it back: without a preset, whole; with one, the preset's name and each member whose value is not the
    /// preset file's (`null` for one the preset has and this does not). A URL under `server`, when given, is written
    /// as a path under it; every other, and every one when `server` is `nil`, whole.
    package func json(relativeTo server: ServerURL? = nil) -> JSONValue {
        let whole = whole(relativeTo: server)
        guard let preset, var base = ServerPresets.named(preset)?.json else { return whole }
        // The preset's paths as this description writes the URLs they name under `server`: `/api/whoami` under
        // `https://host/api` is `/whoami`.
        if let server {
            base = Self.mappingPaths(base) { RequestTemplate.relative(server.joining($0), to: server) }
        }
        return Self.difference(whole, from: base).merging(["preset": .string(preset)])
    }

    /// `json`, a description in the language, with each request's path and each address that is a path (one that
    /// starts with `/`) mapped by `transform`.
    package static func mappingPaths(_ json: JSONValue, _ transform: (String) -> String) -> JSONValue {
        func address(_ value: JSONValue) -> JSONValue {
            guard case .string(let text) = value, text.hasPrefix("/") else { return value }
            return .string(transform(text))
        }
        func request(_ value: JSONValue) -> JSONValue {
            guard case .object(var members) = value, let url = members["url"] else { return value }
            members["url"] = address(url)
            return .object(members)
        }
        guard case .object(var members) = json else { return json }
        for step in ["login", "refresh", "profile"] {
            guard case .object(var parts)? = members[step], let inner = parts["request"] else { continue }
            parts["request"] = request(inner)
            members[step] = .object(parts)
        }
        if case .object(var revocation)? = members["revocation"], case .array(let requests)? = revocation["requests"] {
            revocation["requests"] = .array(requests.map(request))
            members["revocation"] = .object(revocation)
        }
        for name in ["authorization", "deviceAuthorization", "document"] where members[name] != nil {
            members[name] = address(members[name] ?? .null)
        }
        return .object(members)
    }

    /// What `value` says that `base` does not: objects member by member (a member `base` has and `value` has not is
    /// `null`), a request and a list of them whole where they differ, so that read back over `base` they replace it.
    private static func difference(_ value: JSONValue, from base: JSONValue, at name: String = "") -> JSONValue {
        guard name != "request", name != "requests", case .object(let members) = value,
            case .object(let baseMembers) = base
        else { return value }
        var changed: [String: JSONValue] = [:]
        for (name, member) in members where baseMembers[name] != member {
            changed[name] = baseMembers[name].map { difference(member, from: $0, at: name) } ?? member
        }
        for name in baseMembers.keys where members[name] == nil { changed[name] = .null }
        return .object(changed)
    }

    /// Every member of the description, whatever its preset says: what ``json(relativeTo:)`` writes the difference
    /// of, and whose parts the plan credits to the layers that gave them.
    package func whole(relativeTo server: ServerURL? = nil) -> JSONValue {
        func address(_ url: URL) -> JSONValue {
            .string(RequestTemplate.relative(url.absoluteString, to: server))
        }
        // What the language takes by default is left out, as a preset's file leaves it out.
        var members: [String: JSONValue] = [
            "login": login.json(relativeTo: server), "profile": profile.json(relativeTo: server),
            "refresh": refresh?.json(relativeTo: server) ?? .null,
            "revocation": revocation?.json(relativeTo: server) ?? .null,
        ]
        if token != .bearer { members["token"] = .string(token.text) }
        if let preset { members["preset"] = .string(preset) }
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
        if !allowedOrigins.isEmpty { members["allowedOrigins"] = .array(allowedOrigins.map { .string($0.string) }) }
        return .object(members)
    }
}

extension LoginStep {
    fileprivate func json(relativeTo server: ServerURL?) -> JSONValue {
        var members: [String: JSONValue] = [:]
        // No login at all (`signIn: token`) is written as none, which is what `signIn` reads back.
        if yields != .oauth2, !isNone { members["yields"] = JSONValue(yields) }
        if let request { members["request"] = request.json(relativeTo: server) }
        if !refused.isEmpty { members["refused"] = JSONValue(refused) }
        return .object(members)
    }
}

extension RefreshStep {
    fileprivate func json(relativeTo server: ServerURL?) -> JSONValue {
        var members: [String: JSONValue] = ["request": request.json(relativeTo: server)]
        if let yields { members["yields"] = JSONValue(yields) }
        if !ended.isEmpty { members["ended"] = JSONValue(ended) }
        return .object(members)
    }
}

extension RevocationStep {
    fileprivate func json(relativeTo server: ServerURL?) -> JSONValue {
        let requests: [JSONValue] = requests.map { request in
            let json = request.template.json(relativeTo: server)
            return request.mayBeRefused ? json.merging(["mayBeRefused": true]) : json
        }
        var members: [String: JSONValue] = ["requests": .array(requests)]
        if let clientAuthentication { members["client"] = .string(clientAuthentication.rawValue) }
        if !revoked.isEmpty { members["revoked"] = JSONValue(revoked) }
        if gone != [Criterion(status: 410)] { members["gone"] = JSONValue(gone) }
        return .object(members)
    }
}

extension ProfileStep {
    fileprivate func json(relativeTo server: ServerURL?) -> JSONValue {
        var profileRequest = request.json(relativeTo: server)
        // Asked without the token, which a request reads as its default otherwise.
        if request.token == nil, case .object(var parts) = profileRequest {
            parts["token"] = .null
            profileRequest = .object(parts)
        }
        var members: [String: JSONValue] = ["request": profileRequest]
        if let unwrap { members["unwrap"] = .string(unwrap) }
        if !labels.isEmpty {
            members["labels"] = .array(
                labels.map { label in
                    .array([.string(label.field), .string(label.label)] + (label.none.map { [$0] } ?? []))
                })
        }
        return .object(members)
    }
}

extension JSONValue {
    /// A step's yields, each as its expression's text.
    fileprivate init(_ yields: [String: Yield]) {
        self = .object(yields.mapValues { .string($0.description) })
    }

    fileprivate init(_ criteria: [Criterion]) {
        self = .array(criteria.map(\.json))
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
    typealias Invalid = ServerDescription.Invalid

    /// The login step; `signIn` says whether a server without one is one that takes only the tokens people bring.
    func login(_ loginMembers: [String: JSONValue], signIn: SignIn) throws(Invalid) -> LoginStep {
        var login = LoginStep(request: nil)
        if let request = loginMembers["request"], request != .null {
            guard case .object(let parts) = request, parts["url"] != nil, parts["url"] != .null else {
                throw Invalid("login.url is missing: where the login is sent", isMissing: true)
            }
            login.request = try self.request(request, method: "POST", at: "login.request")
        } else if loginMembers["yields"] == nil, signIn != .token {
            throw Invalid(
                "login.url is missing: where the login is sent (signIn=token for a server that takes only tokens)",
                isMissing: true)
        }
        let noLogin = signIn == .token && login.request == nil && loginMembers["yields"] == nil
        login.yields = try yields(loginMembers["yields"], at: "login.yields") ?? (noLogin ? [:] : .oauth2)
        login.refused = try criteria(loginMembers["refused"], at: "login.refused")
        return login
    }

    /// The profile step, whose request carries the session's token unless it says otherwise.
    func profile(_ profileMembers: [String: JSONValue]) throws(Invalid) -> ProfileStep {
        guard case .object(var profileRequest)? = profileMembers["request"], profileRequest["url"] != nil,
            profileRequest["url"] != .null
        else { throw Invalid("profile.url is missing: where the profile is sent", isMissing: true) }
        // Who is signed in is asked with the session's token unless the request says otherwise (`"token": null`).
        if profileRequest["token"] == nil { profileRequest["token"] = .string("{\(Yield.access)}") }
        var profile = ProfileStep(
            request: try self.request(.object(profileRequest), method: "GET", at: "profile.request"))
        profile.unwrap = try string("unwrap", in: profileMembers, of: "profile")
        profile.labels = try labels(profileMembers["labels"])
        return profile
    }

    /// How the server takes the token, when the description says.
    func token(_ value: JSONValue?) throws(Invalid) -> TokenUse? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let use = TokenUse(text: text) else {
                throw Invalid(
                    "token must be a header and its scheme, such as \"Authorization: Bearer\"; got \(text.prefix(60))")
            }
            return use
        case .object(let template)?:
            guard let use = TokenUse(template: template) else {
                throw Invalid(
                    "token must be one header whose value ends with {access}, such as {\"X-Auth-Token\": \"{access}\"}")
            }
            return use
        default: throw Invalid("token must be a header and its scheme, such as \"Authorization: Bearer\"")
        }
    }

    /// The refresh step, sent where the login goes unless it says otherwise.
    func refresh(after login: RequestTemplate?) throws(Invalid) -> RefreshStep? {
        if let refreshMembers = try object("refresh"), case .object(var request)? = refreshMembers["request"] {
            // A refresh goes where the login goes unless it says otherwise, as OAuth 2's token endpoint takes both.
            if request["url"] == nil || request["url"] == .null, let login {
                request["url"] = .string(login.url.description)
            }
            var step = RefreshStep(request: try self.request(.object(request), method: "POST", at: "refresh.request"))
            step.yields = try yields(refreshMembers["yields"], at: "refresh.yields")
            step.ended = try criteria(refreshMembers["ended"], at: "refresh.ended")
            return step
        }
        return nil
    }

    /// The revocation step, once it says where its requests go.
    func revocation() throws(Invalid) -> RevocationStep? {
        // A revocation that says how it is sent before anything says where (OAuth 2's preset, before its metadata)
        // is none until then.
        if let revocationMembers = try object("revocation"),
            case .array(let entries)? = revocationMembers["requests"], !entries.isEmpty,
            entries.allSatisfy({ $0[path: "url"] != nil })
        {
            var requests: [RevocationStep.Request] = []
            for (index, entry) in entries.prefix(8).enumerated() {
                guard case .object(var parts) = entry else {
                    throw Invalid("revocation.requests holds requests")
                }
                let refusable = parts.removeValue(forKey: "mayBeRefused") == .bool(true)
                let template = try self.request(.object(parts), method: "POST", at: "revocation.requests[\(index)]")
                requests.append(RevocationStep.Request(template, mayBeRefused: refusable))
            }
            var step = RevocationStep(
                requests: requests,
                clientAuthentication: try enumeration("client", in: revocationMembers, of: "revocation"))
            step.revoked = try criteria(revocationMembers["revoked"], at: "revocation.revoked")
            if revocationMembers["gone"] != nil {
                step.gone = try criteria(revocationMembers["gone"], at: "revocation.gone")
            }
            return step
        }
        return nil
    }

    /// What the description says of the server's pages; `nil` for nothing.
    func paging() throws(Invalid) -> Paging? {
        if let paging = try object("paging") {
            let read = Paging(
                page: try string("page", in: paging, of: "paging"),
                cursor: try string("cursor", in: paging, of: "paging"),
                offset: try string("offset", in: paging, of: "paging"),
                cut: paging["cut"] == nil || paging["cut"] == .null
                    ? nil : try criteria(paging["cut"], at: "paging.cut"))
            return read == Paging() ? nil : read
        }
        return nil
    }

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

    /// A request of a step, its URL under the server.
    func request(_ json: JSONValue, method: String, at path: String) throws(ServerDescription.Invalid)
        -> RequestTemplate
    {
        do throws(JSONPointer.Invalid) {
            return try RequestTemplate(json: json, under: server, method: method, at: path)
        } catch {
            throw ServerDescription.Invalid(error.reason)
        }
    }

    /// A step's yields: names and their expressions or templates; `nil` when absent.
    func yields(_ value: JSONValue?, at path: String) throws(ServerDescription.Invalid) -> [String: Yield]? {
        guard let value, value != .null else { return nil }
        guard case .object(let members) = value, members.count <= 32 else {
            throw ServerDescription.Invalid("\(path) must be an object of names and expressions")
        }
        var yields: [String: Yield] = [:]
        for (name, member) in members where member != .null {
            guard Template.isName(Substring(name)) else {
                throw ServerDescription.Invalid("\(path): \(name.prefix(60)) is not a name a template can use")
            }
            guard case .string(let text) = member else {
                throw ServerDescription.Invalid("\(path).\(name) must be an expression, such as $response.body#/token")
            }
            do throws(JSONPointer.Invalid) {
                yields[name] = try Yield(text)
            } catch {
                throw ServerDescription.Invalid("\(path).\(name): \(error.reason)")
            }
        }
        return yields
    }

    /// A list of criteria: conditions, Arazzo's criterion objects, or bare statuses.
    func criteria(_ value: JSONValue?, at path: String) throws(ServerDescription.Invalid) -> [Criterion] {
        guard let value, value != .null else { return [] }
        guard case .array(let values) = value, values.count <= 32 else {
            throw ServerDescription.Invalid("\(path) must be an array of criteria, such as \"$statusCode == 401\"")
        }
        return try values.map { (value) throws(ServerDescription.Invalid) in
            do throws(JSONPointer.Invalid) {
                return try Criterion(json: value)
            } catch {
                throw ServerDescription.Invalid("\(path): \(error.reason)")
            }
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
