extension ServerDescription {
    /// The members the description language had before its steps were requests, read as edits of those requests:
    /// what `server set`'s flags and a document's reading say (`login.url`, `login.account`, `refresh.with`, …),
    /// and what descriptions saved or exported before say.
    ///
    /// Each edit says one thing about a request that is there, or makes the request a step of that kind sends when
    /// there is none: `login.account: email` puts the account in `email`, wherever it went before; `refresh.with:
    /// grant` makes the refresh RFC 6749's refresh grant. The edits are applied in the order of the layers that make
    /// the description, so that a flag goes over a document as it always did.
    package enum Shorthand {
        /// The members of each step that are edits.
        static let edits: [String: Set<String>] = [
            "login": ["url", "body", "account", "email", "password", "members", "appId", "answer", "refusals", "with"],
            "refresh": ["url", "with", "token", "answer", "appId"],
            "revocation": ["url", "with"],
            "profile": ["url"],
        ]

        /// A layer's members as requests, which go over what is there member by member, and as edits.
        static func split(_ members: [String: JSONValue]) -> (requests: [String: JSONValue], edits: [String: JSONValue])
        {
            var requests = members
            var edits: [String: JSONValue] = [:]
            for (step, names) in Self.edits {
                guard case .object(var parts)? = members[step] else { continue }
                var stepEdits: [String: JSONValue] = [:]
                for name in names {
                    if let value = parts.removeValue(forKey: name) { stepEdits[name] = value }
                }
                if !stepEdits.isEmpty { edits[step] = .object(stepEdits) }
                requests[step] = .object(parts)
            }
            requests.removeValue(forKey: "preset")
            return (requests, edits)
        }

        /// `edits` applied to `canonical`.
        static func apply(_ edits: [String: JSONValue], to canonical: JSONValue, under server: ServerURL)
            throws(Invalid) -> JSONValue
        {
            guard case .object(var members) = canonical else { return canonical }
            if case .object(let login)? = edits["login"] {
                members["login"] = .object(try Self.login(login, on: Self.object(members["login"]), members: &members))
            }
            if case .object(let refresh)? = edits["refresh"] {
                members["refresh"] = .object(try Self.refresh(refresh, on: Self.object(members["refresh"])))
            }
            if case .object(let revocation)? = edits["revocation"] {
                members["revocation"] = .object(try Self.revocation(revocation, on: Self.object(members["revocation"])))
            }
            if case .object(let profile)? = edits["profile"] {
                var step = Self.object(members["profile"])
                var request = Self.object(step["request"])
                request["method"] = request["method"] ?? "GET"
                request["token"] = request["token"] ?? "{access}"
                if let url = profile["url"] { request["url"] = url }
                step["request"] = .object(request)
                members["profile"] = .object(step)
            }
            return .object(members)
        }

        private static func object(_ value: JSONValue?) -> [String: JSONValue] {
            if case .object(let members)? = value { members } else { [:] }
        }

        private static func text(_ value: JSONValue?, at path: String) throws(Invalid) -> String? {
            switch value {
            case nil, .null?: return nil
            case .string(let text)? where !text.isEmpty && text.count <= 2048: return text
            default: throw Invalid("\(path) must be a string")
            }
        }

        // MARK: The login

        /// The placeholders that the credentials' members hold, alone.
        private static let credentials: Set<JSONValue> = [
            "{account}", "{username?}", "{email?}", "{password}", "{app_id}",
        ]

        private static func login(
            _ edits: [String: JSONValue], on step: [String: JSONValue], members: inout [String: JSONValue]
        ) throws(Invalid) -> [String: JSONValue] {
            var step = step
            switch try text(edits["with"], at: "login.with") {
            case "basic"?:
                // Every request carries the account and the password by HTTP Basic (RFC 7617), and the profile's
                // request checks them: the login sends nothing of its own.
                step["request"] = nil
                step["yields"] = ["access": "{basic}"]
                if case .string? = members["token"] {} else { members["token"] = "Authorization: Basic" }
                return step
            case "post"?, nil: break
            case let other?: throw Invalid("login.with cannot be \(other.prefix(60))")
            }
            let sendsNothing = step["request"] == nil || step["request"] == .null
            // A login that sends nothing stays so, whatever a document says of its address, unless told otherwise.
            if sendsNothing, step["yields"] != nil, edits["with"] == nil { return step }
            var request = Self.object(step["request"])
            let made = request.isEmpty
            if made {
                request = ["method": "POST", "json": ["username": "{account}", "password": "{password}"]]
            }
            if let url = try text(edits["url"], at: "login.url") { request["url"] = .string(url) }
            var (form, body) = Self.body(of: request)
            switch try text(edits["body"], at: "login.body") {
            case "form"?: form = true
            case "json"?: form = false
            case nil: break
            case let other?: throw Invalid("login.body cannot be \(other.prefix(60))")
            }
            let names = ["account", "email", "password", "appId"]
            if names.contains(where: { edits[$0] != nil }) || made {
                try Self.credentials(edits, in: &body)
            }
            try Self.members(edits["members"], into: &body)
            request["json"] = nil
            request["form"] = nil
            request["client"] = nil
            if form {
                // A form login is a token endpoint's: the client proves itself there (RFC 6749 §2.3), and the scope
                // goes with it where the description names one.
                body["scope"] = body["scope"] ?? "{scope?}"
                request["form"] = .object(body.mapValues { Self.formValue($0) })
                request["client"] = true
            } else {
                request["json"] = JSONValue.nesting(body)
            }
            step["request"] = .object(request)
            try Self.answer(edits["answer"], into: &step, at: "login.answer")
            if let refusals = edits["refusals"] {
                step["refused"] = .array(try Self.statuses(refusals, at: "login.refusals", from: 400))
            }
            return step
        }

        /// `login.members`: the body's other members, each set or, when `null`, removed; `null` for all of them.
        private static func members(_ edit: JSONValue?, into body: inout [String: JSONValue]) throws(Invalid) {
            switch edit {
            case nil: break
            case .null?: body = body.filter { credentials.contains($0.value) }
            case .object(let extra)?:
                // The credentials go where they go whatever a member says: a document's example of the app id is
                // not the session's.
                for (name, value) in extra where !(body[name].map(credentials.contains) ?? false) {
                    if value == .null { body[name] = nil } else { body[name] = value }
                }
            default: throw Invalid("login.members must be an object of members and their values")
            }
        }

        /// The credentials' members of a login's body, each where `edits` say, else where they were.
        private static func credentials(_ edits: [String: JSONValue], in body: inout [String: JSONValue])
            throws(Invalid)
        {
            func path(of placeholders: Set<JSONValue>) -> String? {
                body.keys.sorted().first { body[$0].map(placeholders.contains) ?? false }
            }
            let account = try text(edits["account"], at: "login.account") ?? path(of: ["{account}", "{username?}"])
            let email: String? =
                if edits.keys.contains("email") { try text(edits["email"], at: "login.email") } else {
                    path(of: ["{email?}"])
                }
            let password = try text(edits["password"], at: "login.password") ?? path(of: ["{password}"])
            let appID = try text(edits["appId"], at: "login.appId") ?? path(of: ["{app_id}"])
            body = body.filter { !Self.credentials.contains($0.value) }
            // Beside an e-mail's own member, the account's takes a user name only; else it takes whichever is given.
            body[account ?? "username"] = email == nil ? "{account}" : "{username?}"
            if let email { body[email] = "{email?}" }
            body[password ?? "password"] = "{password}"
            // The app id's member carries the session's app id, whatever value a document gave it.
            if let appID { body[appID] = "{app_id}" }
        }

        /// Whether a request's body is a form, and its members, named with dots where a JSON body nests them.
        private static func body(of request: [String: JSONValue]) -> (form: Bool, members: [String: JSONValue]) {
            if case .object(let fields)? = request["form"] { return (true, fields) }
            var members: [String: JSONValue] = [:]
            func flatten(_ value: JSONValue, _ prefix: String) {
                guard case .object(let inner) = value, !inner.isEmpty else {
                    members[prefix] = value
                    return
                }
                for (name, member) in inner { flatten(member, prefix.isEmpty ? name : "\(prefix).\(name)") }
            }
            if case .object(let json)? = request["json"] {
                for (name, member) in json { flatten(member, name) }
            }
            return (false, members)
        }

        /// A member's value as a form writes it: a string as it is, anything else as its JSON text.
        private static func formValue(_ value: JSONValue) -> JSONValue {
            if case .string = value { value } else { .string(value.compactJSON) }
        }

        // MARK: Answers

        /// RFC 6749 §5.1's members, as yields.
        private static let oauth2: JSONValue = [
            "access": "$response.body#/access_token", "refresh": "$response.body#/refresh_token",
            "expiresIn": "$response.body#/expires_in",
        ]

        /// A step's yields with what its `answer` edit says, where it says anything.
        private static func answer(_ edit: JSONValue?, into step: inout [String: JSONValue], at path: String)
            throws(Invalid)
        {
            switch edit {
            case nil, .null?: return
            case .object(let answer)?:
                step["yields"] = .object(
                    try Self.yields(answer, over: Self.object(step["yields"] ?? Self.oauth2), at: path))
            default: throw Invalid("\(path) must be an object")
            }
        }

        /// An answer's members (`{"access": "data.token", "unit": "ms"}`) over `yields`.
        private static func yields(_ answer: [String: JSONValue], over yields: [String: JSONValue], at path: String)
            throws(Invalid) -> [String: JSONValue]
        {
            var yields = yields
            func member(_ key: String) throws(Invalid) -> JSONValue? {
                guard let name = try text(answer[key], at: "\(path).\(key)") else { return nil }
                return .string("$response.body#" + JSONPointer(dotted: name).description)
            }
            if let access = try member("access") { yields["access"] = access }
            if let refresh = try member("refresh") { yields["refresh"] = refresh }
            if let username = try member("username") { yields["account"] = username }
            let lifetime = try member("expiresIn") ?? yields["expiresIn"] ?? yields["expiresInMs"]
            let unit = try text(answer["unit"], at: "\(path).unit")
            switch unit {
            case "ms"?:
                yields["expiresIn"] = nil
                yields["expiresInMs"] = lifetime
            case "s"?:
                yields["expiresInMs"] = nil
                yields["expiresIn"] = lifetime
            case nil:
                // A new member for the lifetime keeps the unit it had.
                if answer["expiresIn"] != nil {
                    yields[yields["expiresInMs"] != nil ? "expiresInMs" : "expiresIn"] = lifetime
                }
            default: throw Invalid("\(path).unit must be \"s\" or \"ms\"")
            }
            return yields
        }

        private static func statuses(_ value: JSONValue, at path: String, from lowest: Int64) throws(Invalid)
            -> [JSONValue]
        {
            guard value != .null else { return [] }
            guard case .array(let values) = value, values.count <= 32 else { throw Invalid("\(path) must be an array") }
            return try values.map { (value) throws(Invalid) in
                guard case .integer(let status) = value, (lowest..<500).contains(status) else {
                    throw Invalid("\(path) holds HTTP statuses from \(lowest) to 499")
                }
                return value
            }
        }

        // MARK: The refresh

        private static func refresh(_ edits: [String: JSONValue], on step: [String: JSONValue]) throws(Invalid)
            -> [String: JSONValue]
        {
            var step = step
            var request = Self.object(step["request"])
            if request.isEmpty { request = ["method": "POST", "json": ["refresh_token": "{refresh}"]] }
            // The app id's member is the session's, whatever shape the refresh takes.
            let carried = Self.object(request["json"]).first { $0.value == "{app_id}" }?.key
            let appID = try text(edits["appId"], at: "refresh.appId") ?? carried
            if let text = try text(edits["with"], at: "refresh.with") {
                guard let shape = RefreshShape(text: text) else {
                    throw Invalid("refresh.with cannot be \(text.prefix(60))")
                }
                switch shape {
                case .grant:
                    request = request.filter { ["url", "method"].contains($0.key) }
                    request["form"] = ["grant_type": "refresh_token", "refresh_token": "{refresh}"]
                    request["client"] = true
                case .bearer:
                    request = request.filter { ["url", "method", "tokenUse"].contains($0.key) }
                    request["token"] = "{refresh}"
                case .json(let field):
                    request = request.filter { ["url", "method"].contains($0.key) }
                    request["json"] = .object([field: "{refresh}"])
                }
            }
            if let appID, case .object(var json)? = request["json"] {
                json = json.filter { $0.value != "{app_id}" }
                json[appID] = "{app_id}"
                request["json"] = .object(json)
            }
            if let url = try text(edits["url"], at: "refresh.url") { request["url"] = .string(url) }
            if let use = try text(edits["token"], at: "refresh.token") {
                guard TokenUse(text: use) != nil else { throw Invalid("refresh.token must be a header and its scheme") }
                request["tokenUse"] = .string(use)
            }
            step["request"] = .object(request)
            try Self.answer(edits["answer"], into: &step, at: "refresh.answer")
            return step
        }

        // MARK: The revocation

        private static func revocation(_ edits: [String: JSONValue], on step: [String: JSONValue]) throws(Invalid)
            -> [String: JSONValue]
        {
            var step = step
            var requests: [JSONValue] = if case .array(let list)? = step["requests"] { list } else { [] }
            let url =
                try text(edits["url"], at: "revocation.url")
                ?? requests.first?[path: "url"].flatMap { value in
                    if case .string(let text) = value { text } else { nil }
                }
            if let text = try text(edits["with"], at: "revocation.with") {
                guard let shape = RevocationShape(text: text) else {
                    throw Invalid("revocation.with cannot be \(text.prefix(60))")
                }
                requests = Self.revocationRequests(shape)
            } else if requests.isEmpty {
                requests = Self.revocationRequests(.json(field: "refresh_token"))
            }
            if let url {
                requests = requests.map { request in request.merging(["url": .string(url)]) }
            }
            step["requests"] = .array(requests)
            return step
        }

        /// The requests of a revocation as `with` names its shape.
        private static func revocationRequests(_ shape: RevocationShape) -> [JSONValue] {
            switch shape {
            case .rfc7009:
                // The refresh token first (RFC 7009 §2.1): it is the one that could mint more.
                return ["refresh", "access"].map { token in
                    [
                        "method": "POST", "client": true,
                        "form": ["token": .string("{\(token)}"), "token_type_hint": .string("\(token)_token")],
                    ]
                }
            case .bearer(let name):
                let method = JSONValue.string(name)
                return [
                    ["method": method, "token": "{refresh}", "mayBeRefused": true],
                    ["method": method, "token": "{access}"],
                ]
            case .json(let field):
                return [["method": "POST", "token": "{access}", "json": .object([field: "{refresh}"])]]
            }
        }
    }
}
