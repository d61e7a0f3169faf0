import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// The requests of the kinds of server that the API document does not describe, shaped as the server's
/// description says and sent through ``APIService/exchange(_:body:to:operation:outer:recorder:secrets:server:)``.
extension APIService {
    /// Logs in: a JSON object of the user, under the member the description names (Identity's `email`,
    /// simplejwt's `username`), and `password`; or the OAuth 2 password grant (RFC 6749 §4.3: a form with
    /// `grant_type=password`, `username`, `password`, and `scope` and `client_id` when set; a client secret goes
    /// by HTTP Basic, §2.3.1). Refused credentials (401, or OAuth 2's `invalid_grant` and `invalid_client`) are
    /// ``APIServiceError/badCredentials(status:message:)``.
    func login(
        _ description: ServerDescription, email: String, password: String, clientSecret: String?, server: ServerURL
    ) async throws(APIServiceError) -> TokenGrant {
        let body: TokenRequestBody
        switch description.login {
        case .passwordGrant:
            body = .form(
                [("grant_type", "password"), ("username", email), ("password", password)]
                    + Self.clientFields(description, clientSecret: clientSecret))
        case .json(let userField):
            body = .json([userField: .string(email), "password": .string(password)])
        case .form(let userField):
            body = .form([(userField, email), ("password", password)])
        }
        return try await tokens(
            from: description.loginURL, body, description: description, clientSecret: clientSecret,
            operation: description.login == .passwordGrant ? .oauth2Login : .login,
            secrets: [password, clientSecret], server: server)
    }

    /// Spends the refresh token, as the description says: in a JSON member (Identity's `refreshToken`,
    /// simplejwt's `refresh`), as OAuth 2's `grant_type=refresh_token` (RFC 6749 §6), or as the bearer token.
    /// A refused refresh (a 401, or `invalid_grant`) is ``APIServiceError/refreshRejected``.
    func refresh(_ description: ServerDescription, refreshToken: String, clientSecret: String?, server: ServerURL)
        async throws(APIServiceError) -> TokenGrant
    {
        guard let url = description.refreshURL else { throw .refreshRejected }
        let body: TokenRequestBody
        switch description.refresh {
        case .grant:
            body = .form(
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
                    + Self.clientFields(description, clientSecret: clientSecret, scope: false))
        case .json(let field):
            body = .json([field: .string(refreshToken)])
        case .bearer:
            body = .bearer(refreshToken)
        }
        return try await tokens(
            from: url, body, description: description, clientSecret: clientSecret,
            operation: description.refresh == .grant ? .oauth2Refresh : .refresh,
            secrets: [refreshToken, clientSecret], server: server)
    }

    /// Ends the session at the description's revocation endpoint, as the description says: RFC 7009 revokes the
    /// refresh token and then the access token (§2.1); a JSON member carries the refresh token, with the access
    /// token as the bearer; or each token is the bearer of a request of its own.
    func revoke(_ description: ServerDescription, credentials: Credentials, server: ServerURL)
        async throws(APIServiceError)
    {
        guard let url = description.revocationURL else { return }
        let secrets = [credentials.accessToken, credentials.refreshToken, credentials.clientSecret]
        switch description.revocation {
        case .json(let field):
            let recorder = ResponseRecorder(secrets: secretBook)
            let body = JSONValue.object([field: credentials.refreshToken.map(JSONValue.string) ?? .null])
            let response = try await exchange(
                Self.request(.post, contentType: "application/json"), body: Data(body.compactJSON.utf8), to: url,
                operation: .bearer, outer: credentials.accessToken.map { [HeaderMiddleware.bearer($0)] } ?? [],
                recorder: recorder, secrets: secrets, server: server)
            try Self.requireSuccess(response, recorder, .bearer)
        case .bearer(let method):
            // The refresh token first, as RFC 7009 orders it: it is the one that could mint more.
            for token in [credentials.refreshToken, credentials.accessToken].compactMap({ $0 }) {
                let recorder = ResponseRecorder(secrets: secretBook)
                let response = try await exchange(
                    Self.request(HTTPRequest.Method(method) ?? .post), body: nil, to: url, operation: .revocation,
                    outer: [HeaderMiddleware.bearer(token)], recorder: recorder, secrets: secrets, server: server)
                try Self.requireSuccess(response, recorder, .revocation)
            }
        case .rfc7009:
            // Revoking the refresh token ends the grant; the access token is revoked too, for servers that keep
            // access tokens alive until they expire.
            let tokens = [(credentials.refreshToken, "refresh_token"), (credentials.accessToken, "access_token")]
            for case (let token?, let hint) in tokens {
                let fields =
                    [("token", token), ("token_type_hint", hint)]
                    + Self.clientFields(description, clientSecret: credentials.clientSecret, scope: false)
                var request = Self.request(.post, contentType: "application/x-www-form-urlencoded")
                request.headerFields[.authorization] = Self.basic(description, clientSecret: credentials.clientSecret)
                let recorder = ResponseRecorder(secrets: secretBook)
                let response = try await exchange(
                    request, body: Data(FormEncoding.encode(fields).utf8), to: url, operation: .revocation,
                    recorder: recorder, secrets: secrets, server: server)
                try Self.requireSuccess(response, recorder, .revocation)
            }
        }
    }

    /// Reads the profile at the profile URL with the bearer token, retried on 429, 502, 503 and 504 as the
    /// original API's is: the answer's object, or the object in its only member, `data`. An answer that is not a
    /// JSON object is ``APIServiceError/notAProfile(_:)``.
    func profile(_ description: ServerDescription, accessToken: String, server: ServerURL)
        async throws(APIServiceError) -> Profile
    {
        let url = description.profileURL
        let recorder = ResponseRecorder(secrets: secretBook)
        var request = Self.request(.get)
        request.headerFields[.accept] = "application/json"
        let response = try await exchange(
            request, body: nil, to: url, operation: .profile,
            outer: [HeaderMiddleware.bearer(accessToken), RetryingMiddleware()], recorder: recorder,
            secrets: [accessToken], server: server)
        try Self.requireSuccess(response, recorder, .profile)
        return try reading { () throws(APIServiceError) in
            try Profile(answer: recorder.body ?? Data(), contentType: response.headerFields[.contentType])
        }
    }

    /// The body of a login or refresh, or, for a refresh token sent as the bearer, none.
    enum TokenRequestBody {
        case json([String: JSONValue])
        case form([(String, String)])
        case bearer(String)
    }

    func tokens(
        from url: URL, _ body: TokenRequestBody, description: ServerDescription, clientSecret: String?,
        operation: Operation, secrets: [String?], server: ServerURL
    ) async throws(APIServiceError) -> TokenGrant {
        var request: HTTPRequest
        var data: Data?
        var outer: [any ClientMiddleware] = []
        switch body {
        case .json(let members):
            request = Self.request(.post, contentType: "application/json")
            data = Data(JSONValue.object(members).compactJSON.utf8)
        case .form(let fields):
            request = Self.request(.post, contentType: "application/x-www-form-urlencoded")
            request.headerFields[.authorization] = Self.basic(description, clientSecret: clientSecret)
            data = Data(FormEncoding.encode(fields).utf8)
        case .bearer(let token):
            request = Self.request(.post)
            outer = [HeaderMiddleware.bearer(token)]
        }
        request.headerFields[.accept] = "application/json"
        let recorder = ResponseRecorder(secrets: secretBook, tokenFields: description.fields)
        let response = try await exchange(
            request, body: data, to: url, operation: operation, outer: outer, recorder: recorder, secrets: secrets,
            server: server)
        try Self.requireSuccess(response, recorder, operation)
        return try reading { () throws(APIServiceError) in
            try TokenAnswer.grant(
                from: recorder.body, contentType: response.headerFields[.contentType], fields: description.fields,
                operation: operation == .oauth2Refresh || operation == .refresh ? "refresh" : "login")
        }
    }

    /// `scope` (unless not wanted) and, for a client without a secret, `client_id`, as form fields.
    static func clientFields(_ description: ServerDescription, clientSecret: String?, scope: Bool = true) -> [(
        String, String
    )] {
        var fields: [(String, String)] = []
        if scope, let value = description.scope { fields.append(("scope", value)) }
        // A client with a secret authenticates by HTTP Basic instead (RFC 6749 §2.3.1).
        if clientSecret == nil, let clientID = description.clientID { fields.append(("client_id", clientID)) }
        return fields
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, RFC 6749 §2.3.1; `nil` without a secret. `ServerPlan`
    /// refuses a secret without a client id.
    static func basic(_ description: ServerDescription, clientSecret: String?) -> String? {
        guard let clientSecret, let clientID = description.clientID else { return nil }
        let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(clientSecret)
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    static func request(_ method: HTTPRequest.Method, contentType: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: "/")
        if let contentType { request.headerFields[.contentType] = contentType }
        return request
    }

    /// Throws the error for a response that is not a success.
    static func requireSuccess(_ response: HTTPResponse, _ recorder: ResponseRecorder, _ operation: Operation)
        throws(APIServiceError)
    {
        guard !(200..<300).contains(response.status.code) else { return }
        throw recorder.failure(operation)
    }
}
