import FoundationEssentials
import SwaggerDocuments
import SwaggerModel

extension Discovery {
    /// A server as its OpenAPI document's operations describe it: where and how to log in, refresh, log out, and
    /// read the current user, and how the token goes with a request.
    package struct Described: Sendable, Hashable {
        package var login: Choice<LoginDraft>
        package var refresh: Choice<RefreshDraft>?
        package var revocation: Choice<RevocationShape>?
        /// The statuses the chosen logout's document gives as its answers, where none is a 2xx: allauth's logout
        /// answers 401, "not authenticated", once the session is over.
        package var revoked: [Int] = []
        package var profile: Choice<ProfileDraft>?
        /// How the current user's operation takes the token, when its security scheme says.
        package var token: TokenUse?
        /// How its lists name a page, where their parameters say.
        package var paging: Paging?
        /// The steps for which more than one operation fitted.
        package var contested: [Contest] {
            [login.contest, refresh?.contest, revocation?.contest, profile?.contest].compactMap { $0 }
        }

        /// What was found, in the description language.
        package var json: JSONValue {
            let draft = login.shape
            if draft.shape == .basic {
                var json: [String: JSONValue] = [
                    "login": ["with": "basic"], "refresh": .null, "revocation": .null,
                    "token": .string(TokenUse(header: "Authorization", scheme: "Basic").text),
                ]
                if let profile {
                    var step: [String: JSONValue] = ["url": .string(profile.url.absoluteString)]
                    if let unwrap = profile.shape.unwrap { step["unwrap"] = .string(unwrap) }
                    json["profile"] = .object(step)
                }
                if let paging { json["paging"] = paging.json }
                return .object(json)
            }
            if draft.sendsBasic { return basicOnceJSON }
            var loginMembers: [String: JSONValue] = [
                "url": .string(login.url.absoluteString), "body": .string(draft.encoding.rawValue),
                "account": .string(draft.account), "password": .string(draft.password),
                "members": .object(draft.members), "email": draft.email.map(JSONValue.string) ?? .null,
            ]
            // Only the answer's members the document names: a preset, or the language's defaults, say the rest.
            var answer: [String: JSONValue] = ["access": .string(draft.answer.accessToken)]
            if draft.named.contains("refresh") { answer["refresh"] = .string(draft.answer.refreshToken) }
            if draft.named.contains("expiresIn") { answer["expiresIn"] = .string(draft.answer.expiresIn) }
            loginMembers["answer"] = .object(answer)
            if !draft.refusals.isEmpty {
                loginMembers["refusals"] = .array(draft.refusals.map { .integer(Int64($0)) })
            }
            var json: [String: JSONValue] = ["login": .object(loginMembers)]
            json["refresh"] =
                refresh.map { choice in
                    var step: [String: JSONValue] = [
                        "url": .string(choice.url.absoluteString), "with": .string(choice.shape.shape.text),
                    ]
                    if let use = choice.shape.token { step["token"] = .string(use.text) }
                    return .object(step)
                } ?? .null
            return .object(json.merging(stepsAfterLogin) { $1 })
        }

        /// A login that sends the credentials once by HTTP Basic, as a request of its own, whose answer's token the
        /// other steps then carry.
        private var basicOnceJSON: JSONValue {
            let draft = login.shape
            var yields: [String: JSONValue] = [
                "access": .string("$response.body#" + JSONPointer(dotted: draft.answer.accessToken).description)
            ]
            if let expiry = draft.expiry {
                yields["expiresAt"] = .string("$response.body#" + JSONPointer(dotted: expiry).description)
            }
            let json: [String: JSONValue] = [
                "login": [
                    "request": [
                        "method": "POST", "url": .string(login.url.absoluteString),
                        "headers": ["Authorization": "Basic {basic}"],
                    ],
                    "yields": .object(yields),
                ],
                "refresh": .null,
            ]
            return .object(json.merging(stepsAfterLogin) { $1 })
        }

        /// The revocation, the profile, the token's use and the pages, as a login of any kind goes with them.
        private var stepsAfterLogin: [String: JSONValue] {
            var json: [String: JSONValue] = [:]
            json["revocation"] =
                revocation.map { choice in
                    var step: [String: JSONValue] = [
                        "url": .string(choice.url.absoluteString), "with": .string(choice.shape.text),
                    ]
                    if !revoked.isEmpty { step["revoked"] = .array(revoked.map { .integer(Int64($0)) }) }
                    return .object(step)
                } ?? .null
            if let profile {
                var step: [String: JSONValue] = ["url": .string(profile.url.absoluteString)]
                if let unwrap = profile.shape.unwrap { step["unwrap"] = .string(unwrap) }
                json["profile"] = .object(step)
            }
            if let token { json["token"] = .string(token.text) }
            if let paging { json["paging"] = paging.json }
            return json
        }
    }

    /// A login as a document describes it: where the account and password go, and what else it takes.
    package struct LoginDraft: Sendable, Hashable {
        package var encoding: BodyEncoding
        package var account: String
        package var email: String?
        package var password: String
        /// The members it sends with a value of their own: the document's default, only enum value or example.
        package var members: [String: JSONValue]
        package var answer: TokenFields
        /// Which of the answer's members the document names (`refresh`, `expiresIn`); the others are defaults.
        package var named: Set<String> = []
        package var refusals: [Int]
        /// How it signs in: posted, or by HTTP Basic on every request where the document says so.
        package var shape: LoginShape = .post
        /// Whether the login takes the account and the password by HTTP Basic, once, and answers a token, as
        /// django-rest-knox's does; it has no body.
        var sendsBasic = false
        /// The answer's member with the token's expiry as a time, where it has one (knox's `expiry`).
        package var expiry: String?
    }

    /// A refresh as a document describes it: its shape, and a scheme of its own for a refresh token sent as the
    /// bearer.
    package struct RefreshDraft: Sendable, Hashable {
        package var shape: RefreshShape
        package var token: TokenUse?
    }

    /// The profile's shape: a `GET` with the access token, as every profile is read, and the member that holds
    /// the user when the answer wraps it (Flask-AppBuilder's `{"result": {...}}`).
    package struct ProfileDraft: Sendable, Hashable {
        package var unwrap: String?
    }

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
        case described(Described)
        /// An API document with no login that swaggerctl can send: why, in a few words.
        case lacking(String)
    }

    /// Reads the operations of an OpenAPI 3 or Swagger 2 document. Relative paths are read against the document's
    /// first server, else its own URL, `url`.
    ///
    /// - The login is a `POST` whose request body has a password property and a user property (`username`,
    ///   `email`, `login`), and whose answer has a token member, or that an OAuth 2 password flow names. Its other
    ///   members are sent with the value the schema gives them; a required member without one rules it out.
    /// - The refresh is a `POST` whose body holds a refresh token, or a body-less `POST` whose path says refresh.
    /// - The logout is a `POST` or `DELETE` whose path says logout, blacklist or revoke.
    /// - The current user is a secured `GET` with no required parameters whose path or operationId says me,
    ///   user, profile, userinfo, account or current; its security scheme says how the token goes.
    ///
    /// When several operations fit a step, the one whose path says most plainly what it is, or that the
    /// document's OAuth 2 password flow names as its `tokenUrl`, is taken.
    /// - Returns: `nil` when `data` is not an API document.
    package static func operations(_ data: Data, at url: URL) -> Reading? {
        guard case .object(let root)? = DocumentText.value(of: data), case .object(let paths)? = root["paths"] else {
            return nil
        }
        let document = APIDocument(root: root, url: url)
        let operations = document.operations(paths)
        let logins = operations.compactMap { document.login($0) }.sorted(by: ranked)
        // A document whose schemas could not all be read in the budget is not half believed.
        guard !document.budget.isSpent else { return .lacking("schemas that refer to each other beyond reading") }
        guard !logins.isEmpty else {
            // No login to post to, but the current user's operation is signed in with HTTP Basic: every request
            // carries the credentials, and that operation checks them.
            let profiles = operations.compactMap { document.profile($0) }.sorted(by: ranked)
            if let profile = profiles.first, document.signsInWithBasic(profile.operation), !document.budget.isSpent {
                let login = Discovery.LoginDraft(
                    encoding: .json, account: "username", email: nil, password: "password", members: [:],
                    answer: .oauth2, refusals: [], shape: .basic)
                return .described(
                    Described(
                        login: Choice(
                            url: profile.operation.url, operation: profile.operation.label, shape: login, contest: nil),
                        refresh: nil, revocation: nil,
                        profile: choice(profiles, step: "profile", flag: "--profile-path"),
                        token: TokenUse(header: "Authorization", scheme: "Basic"), paging: document.paging(operations)))
            }
            let posts = operations.filter { $0.method == "post" }.count
            return .lacking(
                posts == 0
                    ? "no POST operations"
                    : "no POST of \(posts) takes a password and a user name and answers with a token")
        }
        let refreshes = operations.compactMap { document.refresh($0) }.sorted(by: ranked)
        let revocations = operations.compactMap { document.revocation($0) }.sorted(by: ranked)
        let profiles = operations.compactMap { document.profile($0) }.sorted(by: ranked)
        // A document whose schemas could not all be read in the budget is not half believed.
        guard !document.budget.isSpent else { return .lacking("schemas that refer to each other beyond reading") }
        let token = profiles.first.flatMap { document.tokenUse(of: $0.operation) }
        var refresh = refreshes.isEmpty ? nil : choice(refreshes, step: "refresh", flag: "--refresh-path")
        // A refresh token sent as the bearer under a scheme of its own, as Flask-AppBuilder's `jwt_refresh`.
        if let first = refreshes.first, first.shape.shape == .bearer, let use = document.tokenUse(of: first.operation),
            use != (token ?? .bearer)
        {
            refresh?.shape.token = use
        }
        var described = Described(
            login: choice(logins, step: "login", flag: "--login-path"), refresh: refresh,
            revocation: revocations.isEmpty ? nil : choice(revocations, step: "logout", flag: "--revoke-path"),
            profile: profiles.isEmpty ? nil : choice(profiles, step: "profile", flag: "--profile-path"),
            token: token, paging: document.paging(operations))
        described.revoked = revocations.first.map { document.answerStatuses($0.operation) } ?? []
        return .described(described)
    }

    /// One operation that fits a step, and how well.
    struct Candidate<Shape: Sendable & Hashable> {
        var operation: APIDocument.Operation
        var shape: Shape
        var score: Int
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

extension APIDocument {
    /// `POST /api/token/` with `{username, password}` answering `{access, refresh}`.
    func login(_ operation: Operation) -> Discovery.Candidate<Discovery.LoginDraft>? {
        // A sign-up, a registration, a password reset or an e-mail confirmation takes a password too, and answers
        // with a session where the server signs new accounts in: sending it would make an account, or change one.
        guard operation.method == "post", operation.isSendable, !Self.makesOrChanges(operation) else { return nil }
        guard let body = requestBody(operation) else { return basicLogin(operation) }
        let names = body.properties.map(\.name)
        guard let password = names.first(where: { Self.names(password: $0) }) else { return nil }
        let users = Self.userNames.compactMap { name in names.first(where: { $0.lowercased() == name }) }
        // A user name where there is one, and the e-mail beside it (dj-rest-auth takes either).
        guard let account = users.first(where: { $0.lowercased() != "email" }) ?? users.first, password != account
        else { return nil }
        let email = users.first { $0.lowercased() == "email" && $0 != account }
        // The document's OAuth 2 password flow vouches for its tokenUrl: an answer it leaves undescribed (FastAPI's
        // tutorial returns a plain dict) is RFC 6749's.
        let vouched = tokenPaths.contains(operation.url.path(percentEncoded: false))
        let answer = answerProperties(operation) ?? [:]
        guard let access = Self.member(in: answer, named: Self.accessNames) ?? (vouched ? "access_token" : nil)
        else { return nil }
        let refresh = Self.member(in: answer, named: Self.refreshNames)
        let expires = Self.member(in: answer, named: ["expires_in", "expiresin", "expires"])
        // Every other member that has a value to send goes with it: a required one must have one, and a default or
        // an example shows what the server expects (Flask-AppBuilder's provider "db" and refresh true).
        var members: [String: JSONValue] = [:]
        for property in body.properties
        where ![password, account, email].contains(property.name) && !Self.clientMembers.contains(property.name) {
            if let value = property.value {
                members[property.name] = value
            } else if property.name == "grant_type", body.isForm {
                members[property.name] = .string("password")
            } else if property.required {
                return nil
            }
        }
        var score = Self.score(operation, ["login", "signin", "token", "auth", "session", "jwt"])
        if vouched { score += 10 }
        var named: Set<String> = []
        if refresh != nil { named.insert("refresh") }
        if expires != nil { named.insert("expiresIn") }
        let draft = Discovery.LoginDraft(
            encoding: body.isForm ? .form : .json, account: account, email: email, password: password,
            members: members,
            answer: TokenFields(
                accessToken: access, refreshToken: refresh ?? TokenFields.oauth2.refreshToken,
                expiresIn: expires ?? TokenFields.oauth2.expiresIn),
            named: named, refusals: refusals(operation))
        return Discovery.Candidate(operation: operation, shape: draft, score: score)
    }

    /// django-rest-knox's `POST /api/auth/login/`: no body, the credentials by HTTP Basic as its security scheme
    /// says, and a token in the answer.
    private func basicLogin(_ operation: Operation) -> Discovery.Candidate<Discovery.LoginDraft>? {
        guard signsInWithBasic(operation), let answer = answerProperties(operation),
            let access = Self.member(in: answer, named: Self.accessNames)
        else { return nil }
        var draft = Discovery.LoginDraft(
            encoding: .json, account: "username", email: nil, password: "password", members: [:],
            answer: TokenFields(
                accessToken: access, refreshToken: TokenFields.oauth2.refreshToken,
                expiresIn: TokenFields.oauth2.expiresIn),
            refusals: refusals(operation))
        draft.sendsBasic = true
        draft.expiry = Self.member(in: answer, named: ["expiry", "expires_at", "expiresat"])
        let score = Self.score(operation, ["login", "signin", "token", "auth", "session"])
        return Discovery.Candidate(operation: operation, shape: draft, score: score)
    }

    /// simplejwt's `POST token/refresh/` with `{refresh}`, RFC 6749's form, or flask-jwt-extended's bearer.
    func refresh(_ operation: Operation) -> Discovery.Candidate<Discovery.RefreshDraft>? {
        guard operation.method == "post", operation.isSendable, !Self.ends(operation) else { return nil }
        let score = Self.score(operation, ["refresh", "token"])
        if let body = requestBody(operation) {
            let names = body.properties.map(\.name)
            if body.isForm, names.contains("refresh_token"), names.contains("grant_type") {
                return Discovery.Candidate(operation: operation, shape: .init(shape: .grant), score: score)
            }
            guard !names.contains(where: { Self.names(password: $0) }),
                let field = names.first(where: { $0.lowercased().contains("refresh") }), !body.isForm
            else { return nil }
            return Discovery.Candidate(operation: operation, shape: .init(shape: .json(field: field)), score: score)
        }
        guard operation.words.contains("refresh"), isSecured(operation) else { return nil }
        return Discovery.Candidate(operation: operation, shape: .init(shape: .bearer), score: score)
    }

    /// simplejwt's `POST token/blacklist/` with `{refresh}`, fastapi-users' `POST auth/jwt/logout`, RFC 7009's form.
    func revocation(_ operation: Operation) -> Discovery.Candidate<RevocationShape>? {
        guard operation.method != "get", operation.isSendable, Self.ends(operation) else { return nil }
        let score = Self.score(operation, ["logout", "revoke", "blacklist", "signout"])
        guard let body = requestBody(operation) else {
            return Discovery.Candidate(
                operation: operation, shape: .bearer(method: operation.method.uppercased()), score: score)
        }
        let names = body.properties.map(\.name)
        if body.isForm, names.contains("token") {
            return Discovery.Candidate(operation: operation, shape: .rfc7009, score: score)
        }
        guard operation.method == "post", !body.isForm,
            let field = names.first(where: { $0.lowercased().contains("refresh") })
        else { return nil }
        return Discovery.Candidate(operation: operation, shape: .json(field: field), score: score)
    }

    /// `GET /users/me`: secured, with no required parameters, named for the current user.
    func profile(_ operation: Operation) -> Discovery.Candidate<Discovery.ProfileDraft>? {
        guard operation.method == "get", operation.isSendable, isSecured(operation), !hasRequiredParameters(operation)
        else { return nil }
        let ranks = ["me": 8, "userinfo": 8, "current": 6, "whoami": 8, "profile": 5, "account": 4, "user": 4]
        guard let best = operation.words.compactMap({ ranks[$0] }).max() else { return nil }
        // The last segment says what the path is: `/users/me` is the user, `/me/orders` is not.
        let last = Self.words(operation.path).last ?? ""
        // An answer documented as one object member wraps the user; `data` is unwrapped without being named.
        var unwrap: String?
        if let answer = answerProperties(operation), answer.count == 1, let (name, inner) = answer.first,
            case .object = inner, name != "data"
        {
            unwrap = name
        }
        return Discovery.Candidate(
            operation: operation, shape: Discovery.ProfileDraft(unwrap: unwrap),
            score: best + (ranks[last] != nil ? 4 : 0))
    }

    /// How the document's lists name a page, and the cursor a page gives for the next: the page and cursor
    /// parameters its `GET` operations take most, of the names frameworks give them.
    func paging(_ operations: [Operation]) -> Paging? {
        let pages = ["page", "current_page", "page_number", "pageNumber"]
        let cursors = ["cursor", "page_token", "pageToken", "starting_after", "next_token", "continuation"]
        let offsets = ["offset"]
        var counts: [String: Int] = [:]
        for operation in operations where operation.method == "get" {
            guard case .array(let parameters)? = operation.object["parameters"] else { continue }
            for case .object(let parameter)? in parameters.map(resolved) {
                guard parameter["in"] == .string("query"), case .string(let name)? = parameter["name"],
                    pages.contains(name) || cursors.contains(name) || offsets.contains(name)
                else { continue }
                counts[name, default: 0] += 1
            }
        }
        let most = { (names: [String]) in
            counts.filter { names.contains($0.key) }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        let paging = Paging(page: most(pages), cursor: most(cursors), offset: most(offsets))
        return paging == Paging() ? nil : paging
    }

    /// Whether the first security scheme that `operation` requires is HTTP Basic (RFC 7617).
    func signsInWithBasic(_ operation: Operation) -> Bool {
        let security: [JSONValue]? =
            if case .array(let own)? = operation.object["security"] { own } else { defaultSecurity }
        for case .object(let requirement) in security ?? [] {
            for name in requirement.keys.sorted() {
                guard case .object(let scheme)? = resolved(schemes[name]) else { continue }
                return scheme["type"] == .string("http")
                    && (scheme["scheme"].flatMap { if case .string(let text) = $0 { text.lowercased() } else { nil } }
                        == "basic")
                    || scheme["type"] == .string("basic")
            }
        }
        return false
    }

    /// How an operation takes its token, from the first security scheme it requires that names a way:
    /// `Authorization: Bearer` for OAuth 2, OpenID Connect and HTTP bearer; the HTTP scheme's own name for another
    /// (`Authorization: Token`); an API key's header (`X-API-Key`), or, for one in `Authorization` itself, the
    /// prefix its description names, as drf-spectacular writes Django REST framework's `Token`.
    func tokenUse(of operation: Operation) -> TokenUse? {
        let security: [JSONValue]? =
            if case .array(let own)? = operation.object["security"] { own } else { defaultSecurity }
        for case .object(let requirement) in security ?? [] {
            for name in requirement.keys.sorted() {
                guard case .object(let scheme)? = resolved(schemes[name]) else { continue }
                if let use = Self.tokenUse(of: scheme) { return use }
            }
        }
        return nil
    }

    private static func tokenUse(of scheme: [String: JSONValue]) -> TokenUse? {
        switch scheme["type"] {
        case .string("oauth2")?, .string("openIdConnect")?:
            return .bearer
        case .string("http")?:
            guard case .string(let name)? = scheme["scheme"], name.lowercased() != "basic" else { return nil }
            let written = name.lowercased() == "bearer" ? "Bearer" : name.prefix(1).uppercased() + name.dropFirst()
            // Taken as written, not checked here: the description language refuses a scheme or a header name that
            // is not an HTTP token, naming it, where a document's would otherwise be passed over in silence.
            return TokenUse(header: "Authorization", scheme: written)
        case .string("apiKey")?:
            guard scheme["in"] == .string("header"), case .string(let header)? = scheme["name"] else { return nil }
            guard header.lowercased() == "authorization" else { return TokenUse(header: header, scheme: nil) }
            let description: String = if case .string(let text)? = scheme["description"] { text } else { "" }
            return TokenUse(text: "Authorization: \(prefix(in: description) ?? "Bearer")")
        default:
            return nil
        }
    }

    /// The scheme a description of an `Authorization` API key names: `prefix "Token"`, or `"Bearer <token>"`.
    static func prefix(in description: String) -> String? {
        let quoted = description.split(separator: "\"", omittingEmptySubsequences: false)
        // The text between each pair of quotes is at odd places.
        for (index, part) in quoted.enumerated() where index % 2 == 1 {
            let before = index > 0 ? quoted[index - 1].lowercased() : ""
            let word = part.split(separator: " ").first.map(String.init) ?? ""
            let isWord = !word.isEmpty && word.count <= 32 && word.allSatisfy { $0.isLetter }
            if isWord, before.hasSuffix("prefix ") || part.contains(" <") { return word }
        }
        return nil
    }

    /// The statuses an operation's document gives as its answers, when none of them is a 2xx: what its server
    /// answers when it has done what it does. Empty when it lists a success, or nothing.
    func answerStatuses(_ operation: Operation) -> [Int] {
        guard case .object(let responses)? = operation.object["responses"] else { return [] }
        let statuses = responses.keys.compactMap(Int.init).sorted()
        guard !statuses.contains(where: { (200..<300).contains($0) }) else { return [] }
        return statuses.filter { (200..<500).contains($0) }
    }

    /// The failure statuses a login's document declares for refused credentials: a 4xx answer whose description
    /// says so, such as APIFlask's `401 Wrong e-mail or password`, or FastAPI's `400 Incorrect username or
    /// password`. 401 and 403 mean so whatever they say.
    private func refusals(_ operation: Operation) -> [Int] {
        guard case .object(let responses)? = operation.object["responses"] else { return [] }
        return responses.keys.compactMap { key -> Int? in
            guard let status = Int(key), (400..<500).contains(status), status != 401, status != 403,
                case .object(let response)? = resolved(responses[key]),
                case .string(let text)? = response["description"], APIServiceError.speaksOfCredentials(text)
            else { return nil }
            return status
        }.sorted()
    }

    // MARK: - Reading schemas

    struct Body {
        var properties: [Property]
        var isForm: Bool
    }

    /// A member of a request body: whether the schema requires it, and the value it says to send, if any.
    struct Property {
        var name: String
        var required: Bool
        /// Its `default`, `const`, only `enum` value, a pattern that allows one text, or its `example`.
        var value: JSONValue?
    }

    /// The request body's properties: OpenAPI 3's `requestBody`, or Swagger 2's `body` and `formData` parameters.
    private func requestBody(_ operation: Operation) -> Body? {
        if case .object(let requestBody)? = resolved(operation.object["requestBody"]),
            case .object(let content)? = requestBody["content"]
        {
            // JSON first: a framework that takes both (Django REST framework) is happiest with it.
            for (type, form) in [
                ("application/json", false), ("application/x-www-form-urlencoded", true), ("multipart/form-data", true),
            ] {
                guard case .object(let media)? = content[type] else { continue }
                return Body(properties: properties(media["schema"]), isForm: form)
            }
            return nil
        }
        guard case .array(let parameters)? = operation.object["parameters"] else { return nil }
        var form: [Property] = []
        for parameter in parameters {
            guard case .object(let parameter)? = resolved(parameter) else { continue }
            if parameter["in"] == .string("body") {
                return Body(properties: properties(parameter["schema"]), isForm: false)
            }
            if parameter["in"] == .string("formData"), case .string(let name)? = parameter["name"] {
                form.append(
                    Property(
                        name: name, required: parameter["required"] == .bool(true), value: Self.value(of: parameter)))
            }
        }
        return form.isEmpty ? nil : Body(properties: form, isForm: true)
    }

    /// A request's properties, without those that are only ever answered, sorted by name.
    private func properties(_ schema: JSONValue?) -> [Property] {
        var required: Set<String> = []
        let members = propertySchemas(schema, required: &required)
        return members.keys.sorted().compactMap { name in
            guard let member = members[name], !Self.flagged(member, "readOnly") else { return nil }
            let object: [String: JSONValue]? = if case .object(let found)? = resolved(member) { found } else { nil }
            return Property(name: name, required: required.contains(name), value: Self.value(of: object))
        }
    }

    /// The one value a schema says to send: its `default`, `const`, only `enum` value, a pattern that allows one
    /// text (FastAPI's `^password$`), or its `example`.
    private static func value(of schema: [String: JSONValue]?) -> JSONValue? {
        guard let schema else { return nil }
        if let value = schema["default"], value != .null { return value }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], values.count == 1 { return values[0] }
        if case .string(let pattern)? = schema["pattern"], pattern.hasPrefix("^"), pattern.hasSuffix("$") {
            let literal = pattern.dropFirst().dropLast()
            if !literal.isEmpty, literal.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                return .string(String(literal))
            }
        }
        if let value = schema["example"], value != .null { return value }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        return nil
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
        var required: Set<String> = []
        let members = propertySchemas(schema, required: &required)
        guard !members.isEmpty else { return nil }
        var tree: [String: JSONValue] = [:]
        // A property only ever sent (drf-spectacular's one component for both ways) is not in the answer.
        for (name, member) in members where !Self.flagged(member, "writeOnly") {
            tree[name] = propertyTree(member, depth: depth + 1).map(JSONValue.object) ?? .null
        }
        return tree
    }

    private static func flagged(_ schema: JSONValue, _ flag: String) -> Bool {
        if case .object(let schema) = schema { schema[flag] == .bool(true) } else { false }
    }

    /// A schema's properties, with `allOf` parts merged and `$ref`s followed, and the names its parts require.
    ///
    /// The walk is bounded: a part that refers back to one being read is not read again, and the document's
    /// ``budget`` of schemas read is shared by every walk, so a document of cycles, or of parts that fan out
    /// without end, ends its walks early rather than never.
    private func propertySchemas(
        _ schema: JSONValue?, required: inout Set<String>, visiting: Set<String> = []
    ) -> [String: JSONValue] {
        guard budget.spend() else { return [:] }
        var visiting = visiting
        if case .object(let object)? = schema, case .string(let reference)? = object["$ref"] {
            guard visiting.insert(reference).inserted else { return [:] }
        }
        guard case .object(let schema)? = resolved(schema) else { return [:] }
        var found: [String: JSONValue] = [:]
        if case .object(let properties)? = schema["properties"] { found = properties }
        if case .array(let names)? = schema["required"] {
            for case .string(let name) in names { required.insert(name) }
        }
        if case .array(let parts)? = schema["allOf"] {
            for part in parts {
                found.merge(propertySchemas(part, required: &required, visiting: visiting)) { first, _ in first }
            }
        }
        // A choice of shapes: each one's members may be sent, though none of them is required of every body
        // (allauth's login takes a username, an e-mail or a phone beside the password).
        for choice in ["anyOf", "oneOf"] {
            guard case .array(let parts)? = schema[choice] else { continue }
            for part in parts {
                var optional: Set<String> = []
                found.merge(propertySchemas(part, required: &optional, visiting: visiting)) { first, _ in first }
            }
        }
        return found
    }

    private func isSecured(_ operation: Operation) -> Bool {
        let security: [JSONValue]? =
            if case .array(let own)? = operation.object["security"] { own } else { defaultSecurity }
        guard let security else { return false }
        // `[{}]` makes security optional.
        return !security.isEmpty && !security.contains(.object([:]))
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
    static let accessNames = ["access_token", "accesstoken", "access", "token", "jwt", "auth_token", "id_token", "key"]
    static let refreshNames = ["refresh_token", "refreshtoken", "refresh"]
    /// An OAuth 2 form's client members, which the description's client fills in, not the document.
    static let clientMembers: Set<String> = ["client_id", "client_secret", "scope"]

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

    /// Whether the operation ends a session: by its path, its operationId, or what its summary and tags say
    /// (allauth's `DELETE …/auth/session`, "Logout", has no operationId).
    private static func ends(_ operation: Operation) -> Bool {
        let ending = ["logout", "signout", "revoke", "blacklist", "blocklist"]
        if (operation.words + operation.labels).contains(where: ending.contains) { return true }
        // "Log out", "Sign out": two words in a summary, or in a path (`/auth/log-out`).
        return operation.hasPair { ["log", "sign"].contains($0) && $1 == "out" }
    }

    /// Whether the operation makes an account or changes one, by its path, operationId, summary or tags: a sign-up,
    /// a registration, a password reset or change, a confirmation or verification.
    static func makesOrChanges(_ operation: Operation) -> Bool {
        let making = [
            "register", "registration", "signup", "reset", "change", "verify", "confirm", "confirmation",
            "activate", "invite",
        ]
        if (operation.words + operation.labels).contains(where: making.contains) { return true }
        // "Sign up" in a summary, or `/auth/sign-up` in a path.
        return operation.hasPair { $0 == "sign" && $1 == "up" }
    }

    private static func score(_ operation: Operation, _ words: [String]) -> Int {
        operation.words.filter(words.contains).count * 2 - operation.words.count / 4
    }
}

extension APIDocument.Operation {
    /// Whether two words that follow each other, in the path and operationId or in the summary and tags, are such a
    /// pair: what one word says in `signup` takes two in `sign-up`.
    fileprivate func hasPair(_ pair: (String, String) -> Bool) -> Bool {
        [words, labels].contains { list in zip(list, list.dropFirst()).contains(where: pair) }
    }
}
