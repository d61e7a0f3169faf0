import FoundationEssentials
import HTTPTypes

extension APIService {
    /// Logs in to an ASP.NET Core Identity server (`POST /login` with `{email, password}`), or to an OAuth 2
    /// server with the password grant (RFC 6749 §4.3: a form with `grant_type=password`, `username`,
    /// `password`, and `scope` and `client_id` when set; a client secret goes by HTTP Basic, §2.3.1).
    /// - Parameters:
    ///   - dialect: Where and how.
    ///   - email: The account's e-mail, which OAuth 2 calls the user name.
    ///   - password: The account's password.
    ///   - clientSecret: The OAuth 2 client secret, if the client has one.
    /// - Returns: The tokens, and the access token's lifetime when the server gives it.
    /// - Throws: ``APIServiceError``; refused credentials (401, or OAuth 2's `invalid_grant` and
    ///   `invalid_client`) are ``APIServiceError/badCredentials(status:message:)``.
    public func login(_ dialect: ServerDialect, email: String, password: String, clientSecret: String?)
        async throws(APIServiceError) -> Login
    {
        let body: TokenRequestBody =
            switch dialect.kind {
            case .oauth2:
                .form(
                    [("grant_type", "password"), ("username", email), ("password", password)]
                        + Self.clientFields(dialect, clientSecret: clientSecret))
            case .identity, .original:
                .json(["email": .string(email), "password": .string(password)])
            }
        return try await tokens(
            from: dialect.loginURL, body, dialect: dialect, clientSecret: clientSecret,
            operation: dialect.kind == .oauth2 ? .oauth2Login : .login, secrets: [password, clientSecret])
    }

    /// Spends the refresh token: Identity's `POST /refresh` with `{refreshToken}`, or OAuth 2's
    /// `grant_type=refresh_token` (RFC 6749 §6).
    /// - Parameters:
    ///   - dialect: Where and how.
    ///   - refreshToken: The refresh token to spend.
    ///   - clientSecret: The OAuth 2 client secret, if the client has one.
    /// - Returns: The new tokens.
    /// - Throws: ``APIServiceError``; a refused refresh (401, or `invalid_grant`) is
    ///   ``APIServiceError/refreshRejected``.
    public func refresh(_ dialect: ServerDialect, refreshToken: String, clientSecret: String?)
        async throws(APIServiceError) -> Login
    {
        guard let url = dialect.refreshURL else { throw report(.refreshRejected) }
        let body: TokenRequestBody =
            switch dialect.kind {
            case .oauth2:
                .form(
                    [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
                        + Self.clientFields(dialect, clientSecret: clientSecret, scope: false))
            case .identity, .original:
                .json(["refreshToken": .string(refreshToken)])
            }
        return try await tokens(
            from: url, body, dialect: dialect, clientSecret: clientSecret,
            operation: dialect.kind == .oauth2 ? .oauth2Refresh : .refresh, secrets: [refreshToken, clientSecret])
    }

    /// Ends the session at the dialect's revocation endpoint: OAuth 2 revokes the refresh token and then the
    /// access token (RFC 7009 §2.1); another kind posts `{refreshToken}` with the bearer token.
    /// - Parameters:
    ///   - dialect: Where and how; it has a ``ServerDialect/revocationURL``.
    ///   - credentials: The session's tokens and client secret.
    /// - Throws: ``APIServiceError``.
    public func revoke(_ dialect: ServerDialect, credentials: Credentials) async throws(APIServiceError) {
        guard let revocation = dialect.revocationURL, let url = URL(string: revocation) else { return }
        let secrets = [credentials.accessToken, credentials.refreshToken, credentials.clientSecret]
        guard dialect.kind == .oauth2 else {
            let recorder = ResponseRecorder()
            let body = JSONValue.object(["refreshToken": credentials.refreshToken.map(JSONValue.string) ?? .null])
            let response = try await exchange(
                Self.request(.post, contentType: "application/json"), body: Data(body.compactJSON.utf8), to: url,
                operation: .bearer, outer: [HeaderMiddleware.bearer(credentials.accessToken)], recorder: recorder,
                secrets: secrets)
            try await Self.requireSuccess(response, recorder, .bearer, reporting: self)
            return
        }
        // Revoking the refresh token ends the grant; the access token is revoked too, for servers that keep
        // access tokens alive until they expire.
        let tokens = [(credentials.refreshToken, "refresh_token"), (credentials.accessToken, "access_token")]
        for case (let token?, let hint) in tokens {
            let fields =
                [("token", token), ("token_type_hint", hint)]
                + Self.clientFields(dialect, clientSecret: credentials.clientSecret, scope: false)
            var request = Self.request(.post, contentType: "application/x-www-form-urlencoded")
            request.headerFields[.authorization] = Self.basic(dialect, clientSecret: credentials.clientSecret)
            let recorder = ResponseRecorder()
            let response = try await exchange(
                request, body: Data(FormEncoding.encode(fields).utf8), to: url, operation: .revocation,
                recorder: recorder, secrets: secrets)
            try await Self.requireSuccess(response, recorder, .revocation, reporting: self)
        }
    }

    /// Reads the profile at the dialect's profile URL with the bearer token, retried on 429, 502, 503 and 504
    /// as ``fetchProfile(server:accessToken:)`` is.
    /// - Parameters:
    ///   - dialect: Where.
    ///   - accessToken: The bearer token.
    /// - Returns: The profile: the answer's object, or the object in its only member, `data`.
    /// - Throws: ``APIServiceError``; 401 is ``APIServiceError/tokenRejected``, and an answer that is not a
    ///   JSON object is ``APIServiceError/notAProfile(_:)``.
    public func fetchProfile(_ dialect: ServerDialect, accessToken: String) async throws(APIServiceError) -> Profile {
        guard let url = URL(string: dialect.profileURL) else {
            throw report(.contractViolation("the profile URL \(dialect.profileURL.prefix(200)) cannot be read"))
        }
        let recorder = ResponseRecorder()
        var request = Self.request(.get)
        request.headerFields[.accept] = "application/json"
        let response = try await exchange(
            request, body: nil, to: url, operation: .profile,
            outer: [HeaderMiddleware.bearer(accessToken), RetryingMiddleware()], recorder: recorder,
            secrets: [accessToken])
        try await Self.requireSuccess(response, recorder, .profile, reporting: self)
        let profile: Profile
        do throws(APIServiceError) {
            profile = try Profile(
                answer: await recorder.body ?? Data(), contentType: response.headerFields[.contentType])
        } catch {
            throw report(error)
        }
        delegate?.apiService(self, didReceive: profile)
        return profile
    }

    /// The body of a login or refresh.
    enum TokenRequestBody {
        case json([String: JSONValue])
        case form([(String, String)])
    }

    private func tokens(
        from address: String, _ body: TokenRequestBody, dialect: ServerDialect, clientSecret: String?,
        operation: Operation, secrets: [String?]
    ) async throws(APIServiceError) -> Login {
        guard let url = URL(string: address) else {
            throw report(.contractViolation("the token URL \(address.prefix(200)) cannot be read"))
        }
        var request: HTTPRequest
        let data: Data
        switch body {
        case .json(let members):
            request = Self.request(.post, contentType: "application/json")
            data = Data(JSONValue.object(members).compactJSON.utf8)
        case .form(let fields):
            request = Self.request(.post, contentType: "application/x-www-form-urlencoded")
            request.headerFields[.authorization] = Self.basic(dialect, clientSecret: clientSecret)
            data = Data(FormEncoding.encode(fields).utf8)
        }
        request.headerFields[.accept] = "application/json"
        let recorder = ResponseRecorder()
        let response = try await exchange(
            request, body: data, to: url, operation: operation, recorder: recorder, secrets: secrets)
        try await Self.requireSuccess(response, recorder, operation, reporting: self)
        do throws(APIServiceError) {
            return try TokenAnswer.login(
                from: await recorder.body, contentType: response.headerFields[.contentType], fields: dialect.fields,
                operation: operation == .oauth2Refresh || operation == .refresh ? "refresh" : "login")
        } catch {
            throw report(error)
        }
    }

    /// `scope` (unless not wanted) and, for a client without a secret, `client_id`, as form fields.
    static func clientFields(_ dialect: ServerDialect, clientSecret: String?, scope: Bool = true) -> [(String, String)]
    {
        var fields: [(String, String)] = []
        if scope, let value = dialect.scope { fields.append(("scope", value)) }
        // A client with a secret authenticates by HTTP Basic instead (RFC 6749 §2.3.1).
        if clientSecret == nil, let clientID = dialect.clientID { fields.append(("client_id", clientID)) }
        return fields
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, RFC 6749 §2.3.1; `nil` without a secret.
    static func basic(_ dialect: ServerDialect, clientSecret: String?) -> String? {
        guard let clientSecret else { return nil }
        let pair = FormEncoding.escape(dialect.clientID ?? "") + ":" + FormEncoding.escape(clientSecret)
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    static func request(_ method: HTTPRequest.Method, contentType: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: "/")
        if let contentType { request.headerFields[.contentType] = contentType }
        return request
    }

    /// Throws the error for a response that is not a success.
    static func requireSuccess(
        _ response: HTTPResponse, _ recorder: ResponseRecorder, _ operation: Operation, reporting service: APIService
    ) async throws(APIServiceError) {
        guard !(200..<300).contains(response.status.code) else { return }
        throw await service.report(recorder.failure(operation))
    }
}

/// A login or refresh answer, read with the dialect's field names.
enum TokenAnswer {
    static func login(from body: Data?, contentType: String?, fields: TokenFields, operation: String)
        throws(APIServiceError) -> APIService.Login
    {
        guard let body, let answer = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            let sent = contentType.map { "it sent \"\($0.prefix(60))\" instead of JSON" } ?? "it sent no JSON body"
            throw .contractViolation("the \(operation) response is not JSON: \(sent)")
        }
        guard case .string(let access)? = answer[path: fields.accessToken], !access.isEmpty else {
            throw .contractViolation("the \(operation) response has no access token in \"\(fields.accessToken)\"")
        }
        let refresh: String? =
            switch answer[path: fields.refreshToken] {
            case .string(let value) where !value.isEmpty: value
            default: nil
            }
        guard Credentials.isToken(access), refresh.map(Credentials.isToken) ?? true else {
            throw .contractViolation("the \(operation) response's token has characters that no token has")
        }
        // RFC 6749 §7.1: a client must understand the token type; a Bearer client cannot use a MAC token.
        if case .string(let type)? = answer[path: "token_type"], type.lowercased() != "bearer" {
            throw .contractViolation("the \(operation) response's token type is \"\(type.prefix(40))\", not Bearer")
        }
        let lifetime: Int64? =
            switch answer[path: fields.expiresIn] {
            case .integer(let seconds): seconds
            case .number(let seconds): Int64(exactly: seconds.rounded())
            case .string(let text): Int64(text)
            default: nil
            }
        return APIService.Login(
            credentials: Credentials(accessToken: access, refreshToken: refresh),
            expiresIn: lifetime.flatMap { $0 > 0 ? Duration.seconds($0) : nil })
    }
}

/// `application/x-www-form-urlencoded`, as the WHATWG URL standard writes it: what OAuth 2 token and
/// revocation requests are (RFC 6749 Appendix B).
enum FormEncoding {
    private static let unescaped = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._".utf8)

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: unescaped.contains, spaceAsPlus: true)
    }
}

extension JSONValue {
    /// The value at a dotted path of object members, such as `data.token`; `nil` when any step is missing.
    subscript(path path: String) -> JSONValue? {
        var value = self
        for name in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let members) = value, let next = members[String(name)] else { return nil }
            value = next
        }
        return value
    }
}

extension APIService {
    /// The largest discovery document read: OpenAPI documents of large APIs run to megabytes.
    static let documentLimit = 16 << 20

    /// Reads a document that needs no credentials, for discovery.
    /// - Parameter url: Where.
    /// - Returns: The body of a successful answer; `nil` for any other status, which means it is not there.
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    public func document(at url: URL) async throws(APIServiceError) -> Data? {
        var request = Self.request(.get)
        request.headerFields[.accept] = "application/json, application/yaml;q=0.9, */*;q=0.1"
        let recorder = ResponseRecorder(limit: Self.documentLimit)
        let response = try await exchange(
            request, body: nil, to: url, operation: .document, recorder: recorder, secrets: [])
        guard (200..<300).contains(response.status.code) else { return nil }
        return await recorder.body
    }
}
