import FoundationEssentials
import SwaggerModel

extension Discovery {
    /// A server as its OpenAPI document's operations describe it: where and how to log in, refresh, log out, and
    /// read the current user.
    package struct Described: Sendable, Hashable {
        package var login: Choice<LoginShape>
        /// The login answer's members that hold the tokens, as dotted paths.
        package var fields: TokenFields
        package var refresh: Choice<RefreshShape>?
        package var revocation: Choice<RevocationShape>?
        package var profile: Choice<Unshaped>?
        /// The steps for which more than one operation fitted.
        package var contested: [Contest] {
            [login.contest, refresh?.contest, revocation?.contest, profile?.contest].compactMap { $0 }
        }

        /// The endpoints, as the OAuth 2 metadata would name them, for crediting them to the document.
        package var endpoints: Endpoints {
            Endpoints(token: login.url, refresh: refresh?.url, userinfo: profile?.url, revocation: revocation?.url)
        }
    }

    /// The profile's shape: a `GET` with the bearer, as every profile is read.
    package struct Unshaped: Sendable, Hashable {}

    /// The operation chosen for one step, how it is sent, and the others that fitted less well.
    package struct Choice<Shape: Sendable & Hashable>: Sendable, Hashable {
        package var url: URL
        /// `POST /api/token/`, as the document writes it.
        package var operation: String
        package var shape: Shape
        package var contest: Contest?
    }

    /// A step with several candidates: which was taken, the others, and the flag that chooses another.
    package struct Contest: Sendable, Hashable {
        package var step: String
        package var chosen: String
        package var others: [String]
        package var flag: String
    }

    /// What an OpenAPI document says about its server's login.
    package enum Reading: Sendable, Hashable {
        /// The original account API's document: its login is `POST /User/AdminLogin`.
        case original
        case described(Described)
        /// An API document with no login that swaggerctl can send: why, in a few words.
        case lacking(String)
    }

    /// Reads the operations of an OpenAPI 3 or Swagger 2 document. Relative paths are read against the document's
    /// first server, else its own URL, `url`.
    ///
    /// - The login is a `POST` whose request body has a password property and a user property (`username`,
    ///   `email`, `login`), and whose answer has a token member, or that an OAuth 2 password flow names.
    /// - The refresh is a `POST` whose body holds a refresh token, or a body-less `POST` whose path says refresh.
    /// - The logout is a `POST` or `DELETE` whose path says logout, blacklist or revoke.
    /// - The current user is a secured `GET` with no required parameters whose path or operationId says me,
    ///   user, profile, userinfo, account or current.
    ///
    /// When several operations fit a step, the one whose path says most plainly what it is, or that the
    /// document's OAuth 2 password flow names as its `tokenUrl`, is taken.
    /// - Returns: `nil` when `data` is not an API document.
    package static func operations(_ data: Data, at url: URL) -> Reading? {
        guard case .object(let root)? = DocumentText.value(of: data), case .object(let paths)? = root["paths"] else {
            return nil
        }
        let document = APIDocument(root: root, url: url)
        if paths.keys.contains(where: { $0.lowercased().hasSuffix("/user/adminlogin") }) { return .original }
        let operations = document.operations(paths)
        let logins = operations.compactMap { document.login($0) }.sorted(by: ranked)
        guard let login = logins.first else {
            let posts = operations.filter { $0.method == "post" }.count
            return .lacking(
                posts == 0
                    ? "no POST operations"
                    : "no POST of \(posts) takes a password and a user name and answers with a token")
        }
        let refreshes = operations.compactMap { document.refresh($0) }.sorted(by: ranked)
        let revocations = operations.compactMap { document.revocation($0) }.sorted(by: ranked)
        let profiles = operations.compactMap { document.profile($0) }.sorted(by: ranked)
        return .described(
            Described(
                login: choice(logins, step: "login", flag: "--login-path"), fields: login.fields,
                refresh: refreshes.isEmpty ? nil : choice(refreshes, step: "refresh", flag: "--refresh-path"),
                revocation: revocations.isEmpty ? nil : choice(revocations, step: "logout", flag: "--revoke-path"),
                profile: profiles.isEmpty ? nil : choice(profiles, step: "profile", flag: "--profile-path")))
    }

    /// One operation that fits a step, and how well.
    struct Candidate<Shape: Sendable & Hashable> {
        var operation: APIDocument.Operation
        var shape: Shape
        var score: Int
        var fields = TokenFields.oauth2
    }

    private static func ranked<Shape>(_ a: Candidate<Shape>, _ b: Candidate<Shape>) -> Bool {
        (a.score, b.operation.path.count, b.operation.path) > (b.score, a.operation.path.count, a.operation.path)
    }

    private static func choice<Shape>(_ ranked: [Candidate<Shape>], step: String, flag: String) -> Choice<Shape> {
        let best = ranked[0]
        let contest =
            ranked.count == 1
            ? nil
            : Contest(
                step: step, chosen: best.operation.label, others: ranked.dropFirst().map(\.operation.label), flag: flag)
        return Choice(url: best.operation.url, operation: best.operation.label, shape: best.shape, contest: contest)
    }
}

/// An OpenAPI document's parts that discovery reads, with its `$ref`s followed.
struct APIDocument {
    let root: [String: JSONValue]
    /// What relative paths are read against.
    let base: URL
    /// The paths that the document's OAuth 2 password flows name as their `tokenUrl`.
    let tokenPaths: Set<String>
    /// Whether the document secures every operation unless one says otherwise.
    let securedByDefault: Bool

    init(root: [String: JSONValue], url: URL) {
        self.root = root
        // Without servers, OpenAPI 3's paths are under "/" of the document's host, as Swagger 2's are without a
        // basePath.
        var base = URL(string: "/", relativeTo: url)?.absoluteURL ?? url
        if case .array(let servers)? = root["servers"], case .object(let first)? = servers.first,
            case .string(let server)? = first["url"], let resolved = Discovery.resolve(server, against: url)
        {
            base = resolved
        } else if case .string(let basePath)? = root["basePath"],
            let resolved = Discovery.resolve(basePath, against: url)
        {
            base = resolved
        }
        // A server URL names a folder: "token" under "https://host/api" is "https://host/api/token".
        self.base = base.absoluteString.hasSuffix("/") ? base : base.appending(path: "")
        var tokenPaths: Set<String> = []
        let schemes: JSONValue? =
            if case .object(let components)? = root["components"] { components["securitySchemes"] } else {
                root["securityDefinitions"]
            }
        if case .object(let schemes)? = schemes {
            for case .object(let scheme) in schemes.values {
                let flow: JSONValue? =
                    if case .object(let flows)? = scheme["flows"] { flows["password"] } else { .object(scheme) }
                if case .object(let flow)? = flow, case .string(let token)? = flow["tokenUrl"],
                    let url = Discovery.resolve(token, against: self.base)
                {
                    tokenPaths.insert(url.path(percentEncoded: false))
                }
            }
        }
        self.tokenPaths = tokenPaths
        if case .array(let security)? = root["security"] {
            securedByDefault = !security.isEmpty
        } else {
            securedByDefault = false
        }
    }

    struct Operation {
        var path: String
        var method: String
        var url: URL
        var object: [String: JSONValue]
        /// `POST /api/token/`.
        var label: String { "\(method.uppercased()) \(path)" }
        /// The path's words and the operationId's, lowercased, for matching names.
        var words: [String]
    }

    func operations(_ paths: [String: JSONValue]) -> [Operation] {
        var found: [Operation] = []
        for (path, item) in paths {
            guard case .object(let item)? = resolved(item) else { continue }
            // Relative to the server URL: "/token/" under "https://host/api" is under /api.
            let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
            guard let url = URL(string: relative, relativeTo: base)?.absoluteURL else { continue }
            for method in ["get", "post", "delete"] {
                guard case .object(let operation)? = item[method] else { continue }
                var words = Self.words(path)
                if case .string(let id)? = operation["operationId"] { words += Self.words(id) }
                found.append(Operation(path: path, method: method, url: url, object: operation, words: words))
            }
        }
        return found
    }

    /// `POST /api/token/` with `{username, password}` answering `{access, refresh}`.
    func login(_ operation: Operation) -> Discovery.Candidate<LoginShape>? {
        guard operation.method == "post", let body = requestBody(operation) else { return nil }
        guard let password = body.properties.first(where: { Self.names(password: $0) }),
            let user = Self.userNames.lazy.compactMap({ name in
                body.properties.first(where: { $0.lowercased() == name })
            }).first,
            password != user
        else { return nil }
        // The document's OAuth 2 password flow vouches for its tokenUrl: an answer it leaves undescribed (FastAPI's
        // tutorial returns a plain dict) is RFC 6749's.
        let vouched = tokenPaths.contains(operation.url.path(percentEncoded: false))
        let answer = answerProperties(operation) ?? [:]
        guard let access = Self.member(in: answer, named: Self.accessNames) ?? (vouched ? "access_token" : nil)
        else { return nil }
        let refresh = Self.member(in: answer, named: Self.refreshNames)
        let expires = Self.member(in: answer, named: ["expires_in", "expiresin", "expires"])
        let shape: LoginShape =
            if !body.isForm {
                .json(userField: user)
            } else if body.properties.contains("grant_type") || user == "username" {
                .passwordGrant
            } else {
                .form(userField: user)
            }
        var score = Self.score(operation, ["login", "signin", "token", "auth", "session", "jwt"])
        if vouched { score += 10 }
        if operation.words.contains(where: { ["register", "signup", "reset", "change", "verify"].contains($0) }) {
            score -= 10
        }
        return Discovery.Candidate(
            operation: operation, shape: shape, score: score,
            fields: TokenFields(
                accessToken: access, refreshToken: refresh ?? TokenFields.oauth2.refreshToken,
                expiresIn: expires ?? TokenFields.oauth2.expiresIn))
    }

    /// simplejwt's `POST token/refresh/` with `{refresh}`, RFC 6749's form, or flask-jwt-extended's bearer.
    func refresh(_ operation: Operation) -> Discovery.Candidate<RefreshShape>? {
        guard operation.method == "post", !Self.ends(operation) else { return nil }
        let score = Self.score(operation, ["refresh", "token"])
        if let body = requestBody(operation) {
            if body.isForm, body.properties.contains("refresh_token"), body.properties.contains("grant_type") {
                return Discovery.Candidate(operation: operation, shape: .grant, score: score)
            }
            guard !body.properties.contains(where: { Self.names(password: $0) }),
                let field = body.properties.first(where: { $0.lowercased().contains("refresh") }), !body.isForm
            else { return nil }
            return Discovery.Candidate(operation: operation, shape: .json(field: field), score: score)
        }
        guard operation.words.contains("refresh"), isSecured(operation) else { return nil }
        return Discovery.Candidate(operation: operation, shape: .bearer, score: score)
    }

    /// simplejwt's `POST token/blacklist/` with `{refresh}`, fastapi-users' `POST auth/jwt/logout`, RFC 7009's form.
    func revocation(_ operation: Operation) -> Discovery.Candidate<RevocationShape>? {
        guard operation.method != "get", Self.ends(operation) else { return nil }
        let score = Self.score(operation, ["logout", "revoke", "blacklist", "signout"])
        guard let body = requestBody(operation) else {
            return Discovery.Candidate(
                operation: operation, shape: .bearer(method: operation.method.uppercased()), score: score)
        }
        if body.isForm, body.properties.contains("token") {
            return Discovery.Candidate(operation: operation, shape: .rfc7009, score: score)
        }
        guard operation.method == "post", !body.isForm,
            let field = body.properties.first(where: { $0.lowercased().contains("refresh") })
        else { return nil }
        return Discovery.Candidate(operation: operation, shape: .json(field: field), score: score)
    }

    /// `GET /users/me`: secured, with no required parameters, named for the current user.
    func profile(_ operation: Operation) -> Discovery.Candidate<Discovery.Unshaped>? {
        guard operation.method == "get", isSecured(operation), !hasRequiredParameters(operation) else { return nil }
        let ranks = ["me": 8, "userinfo": 8, "current": 6, "whoami": 8, "profile": 5, "account": 4, "user": 4]
        guard let best = operation.words.compactMap({ ranks[$0] }).max() else { return nil }
        // The last segment says what the path is: `/users/me` is the user, `/me/orders` is not.
        let last = Self.words(operation.path).last ?? ""
        return Discovery.Candidate(
            operation: operation, shape: Discovery.Unshaped(), score: best + (ranks[last] != nil ? 4 : 0))
    }

    // MARK: - Reading schemas

    struct Body {
        var properties: [String]
        var isForm: Bool
    }

    /// The request body's properties: OpenAPI 3's `requestBody`, or Swagger 2's `body` and `formData` parameters.
    private func requestBody(_ operation: Operation) -> Body? {
        if case .object(let requestBody)? = resolved(operation.object["requestBody"]),
            case .object(let content)? = requestBody["content"]
        {
            for (type, form) in [
                ("application/json", false), ("application/x-www-form-urlencoded", true), ("multipart/form-data", true),
            ] {
                guard case .object(let media)? = content[type] else { continue }
                return Body(properties: properties(media["schema"], without: "readOnly"), isForm: form)
            }
            return nil
        }
        guard case .array(let parameters)? = operation.object["parameters"] else { return nil }
        var form: [String] = []
        for parameter in parameters {
            guard case .object(let parameter)? = resolved(parameter) else { continue }
            if parameter["in"] == .string("body") {
                return Body(properties: properties(parameter["schema"], without: "readOnly"), isForm: false)
            }
            if parameter["in"] == .string("formData"), case .string(let name)? = parameter["name"] { form.append(name) }
        }
        return form.isEmpty ? nil : Body(properties: form, isForm: true)
    }

    /// The successful answer's schema, as a tree of properties: a leaf is `nil`.
    private func answerProperties(_ operation: Operation) -> [String: JSONValue]? {
        guard case .object(let responses)? = operation.object["responses"] else { return nil }
        for status in ["200", "201", "2XX", "default"] {
            guard case .object(let response)? = resolved(responses[status]) else { continue }
            var schema = response["schema"]
            if case .object(let content)? = response["content"] {
                let json = content.keys.sorted().first(where: { $0.contains("json") })
                schema = nil
                if let json, case .object(let media)? = content[json] { schema = media["schema"] }
            }
            if let tree = propertyTree(schema, depth: 0) { return tree }
        }
        return nil
    }

    private func propertyTree(_ schema: JSONValue?, depth: Int) -> [String: JSONValue]? {
        guard depth < 3 else { return nil }
        let members = propertySchemas(schema)
        guard !members.isEmpty else { return nil }
        var tree: [String: JSONValue] = [:]
        // A property only ever sent (drf-spectacular's one component for both ways) is not in the answer.
        for (name, member) in members where !Self.flagged(member, "writeOnly") {
            tree[name] = propertyTree(member, depth: depth + 1).map(JSONValue.object) ?? .null
        }
        return tree
    }

    /// The names of a request's properties, without those that are only ever answered.
    private func properties(_ schema: JSONValue?, without flag: String) -> [String] {
        propertySchemas(schema).filter { !Self.flagged($0.value, flag) }.keys.sorted()
    }

    private static func flagged(_ schema: JSONValue, _ flag: String) -> Bool {
        if case .object(let schema) = schema { schema[flag] == .bool(true) } else { false }
    }

    /// A schema's properties, with `allOf` parts merged and `$ref`s followed.
    private func propertySchemas(_ schema: JSONValue?) -> [String: JSONValue] {
        guard case .object(let schema)? = resolved(schema) else { return [:] }
        var found: [String: JSONValue] = [:]
        if case .object(let properties)? = schema["properties"] { found = properties }
        if case .array(let parts)? = schema["allOf"] {
            for part in parts { found.merge(propertySchemas(part)) { first, _ in first } }
        }
        return found
    }

    /// `value` with its local `$ref` followed, a few times at most: a document may refer in a loop.
    func resolved(_ value: JSONValue?) -> JSONValue? {
        var value = value
        for _ in 0..<8 {
            guard case .object(let object)? = value, case .string(let reference)? = object["$ref"] else { return value }
            guard reference.hasPrefix("#/") else { return nil }
            var target: JSONValue? = .object(root)
            for part in reference.dropFirst(2).split(separator: "/") {
                let key = String(part).replacing("~1", with: "/").replacing("~0", with: "~")
                guard case .object(let members)? = target else { return nil }
                target = members[key]
            }
            value = target
        }
        return nil
    }

    private func isSecured(_ operation: Operation) -> Bool {
        if case .array(let security)? = operation.object["security"] {
            // `[{}]` makes security optional.
            return !security.isEmpty && !security.contains(.object([:]))
        }
        return securedByDefault
    }

    private func hasRequiredParameters(_ operation: Operation) -> Bool {
        if operation.path.contains("{") { return true }
        guard case .array(let parameters)? = operation.object["parameters"] else { return false }
        return parameters.contains { parameter in
            guard case .object(let parameter)? = resolved(parameter) else { return false }
            return parameter["required"] == .bool(true)
        }
    }

    // MARK: - Names

    /// In the order they are preferred, when a login takes several (dj-rest-auth takes `username` or `email`).
    static let userNames = ["username", "user_name", "email", "login", "identifier"]
    static let accessNames = ["access_token", "accesstoken", "access", "token", "jwt", "auth_token", "id_token"]
    static let refreshNames = ["refresh_token", "refreshtoken", "refresh"]

    private static func names(password name: String) -> Bool {
        ["password", "passwd", "pass"].contains(name.lowercased())
    }

    /// The dotted path of the first member of `tree` named as one of `names` (compared lowercased), at the top or
    /// one object down, as `data.token`.
    static func member(in tree: [String: JSONValue], named names: [String]) -> String? {
        for name in names {
            if let key = tree.keys.sorted().first(where: { $0.lowercased() == name }) { return key }
        }
        for key in tree.keys.sorted() {
            guard case .object(let inner)? = tree[key], let found = member(inner, names) else { continue }
            return key + "." + found
        }
        return nil
    }

    private static func member(_ tree: [String: JSONValue], _ names: [String]) -> String? {
        names.lazy.compactMap { name in tree.keys.sorted().first(where: { $0.lowercased() == name }) }.first
    }

    /// Whether the operation ends a session.
    private static func ends(_ operation: Operation) -> Bool {
        operation.words.contains { ["logout", "signout", "revoke", "blacklist", "blocklist"].contains($0) }
    }

    private static func score(_ operation: Operation, _ words: [String]) -> Int {
        operation.words.filter(words.contains).count * 2 - operation.words.count / 4
    }

    /// The words of a path or an operationId, lowercased: `/api/token/refresh/` and `token_refresh_create` give
    /// `token` and `refresh`; `getCurrentUser` gives `get`, `current` and `user`.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character = " "
        for character in text {
            if character.isLetter || character.isNumber {
                if character.isUppercase, previous.isLowercase, !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                word.append(contentsOf: character.lowercased())
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        // A collection's name is its item's: `/users/me` is about a user.
        return words.map { $0 == "users" ? "user" : $0 }
    }
}
