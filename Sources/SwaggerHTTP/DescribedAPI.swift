import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// A server's requests as its ``ServerDescription`` says them, sent through
/// ``APIService/exchange(_:body:to:operation:outer:recorder:limit:secrets:server:)``: the one sender of every
/// server's login, refresh, revocation and profile.
struct DescribedAPI {
    let description: ServerDescription

    /// The account and the password in the members the login names, with its other members, as JSON or as a
    /// form; a form to a token endpoint carries the client's fields too (RFC 6749 §4.3, a client secret by HTTP
    /// Basic, §2.3.1). Refused credentials are ``APIServiceError/badCredentials(status:message:)``.
    func login(_ attempt: LoginAttempt, password: String, clientSecret: String?, through service: APIService)
        async throws(APIServiceError) -> TokenGrant
    {
        let login = description.login
        let name = attempt.accountName
        if login.shape == .basic {
            return try await basicLogin(attempt, password: password, through: service)
        }
        var members = login.members
        members[login.member(for: name)] = .string(name.value)
        members[login.password] = .string(password)
        if let appID = login.appID { members[appID] = .string(attempt.appID) }
        let body: TokenRequestBody
        switch login.encoding {
        case .json:
            body = .json(members, nesting: true)
        case .form:
            // The grant's own fields first, as RFC 6749's examples write them.
            let ordered = members.sorted {
                ($0.key == "grant_type" ? 0 : 1, $0.key) < ($1.key == "grant_type" ? 0 : 1, $1.key)
            }
            body = .form(ordered.map { ($0.key, Self.formValue($0.value)) } + clientFields(clientSecret))
        }
        return try await tokens(
            from: login.url, body, answer: login.answer, clientSecret: clientSecret, operation: .login,
            refusals: login.refusals, secrets: [password, clientSecret], server: attempt.server, through: service)
    }

    /// The refresh token in a JSON member, as OAuth 2's `grant_type=refresh_token` (RFC 6749 §6), or as the
    /// bearer. A refused refresh (a 401, or `invalid_grant`) is ``APIServiceError/refreshRejected``.
    func refresh(_ request: RefreshRequest, through service: APIService) async throws(APIServiceError) -> TokenGrant {
        guard let step = description.refresh else { throw .refreshRejected }
        let refreshToken = request.refreshToken
        let body: TokenRequestBody
        switch step.shape {
        case .grant:
            body = .form(
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
                    + clientFields(request.clientSecret, scope: false))
        case .json(let field):
            var members: [String: JSONValue] = [field: .string(refreshToken)]
            if let appID = step.appID { members[appID] = .string(request.appID) }
            body = .json(members, nesting: false)
        case .bearer:
            body = .bearer(refreshToken, step.token ?? description.token)
        }
        return try await tokens(
            from: step.url, body, answer: step.answer ?? description.login.answer, clientSecret: request.clientSecret,
            operation: step.shape == .grant ? .oauth2Refresh : .refresh, refusals: [],
            secrets: [refreshToken, request.clientSecret], server: request.server, through: service)
    }

    /// RFC 7009 revokes the refresh token and then the access token (§2.1), its client authenticated as the
    /// description says; a JSON member carries the refresh token, with the access token as the bearer; or each
    /// token is the bearer of a request of its own.
    func revoke(_ revocation: Revocation, through service: APIService) async throws(APIServiceError) {
        guard let step = description.revocation else { return }
        let credentials = revocation.credentials
        let secrets = [credentials.accessToken, credentials.refreshToken, credentials.clientSecret]
        let use = description.token
        switch step.shape {
        case .json(let field):
            let recorder = ResponseRecorder(secrets: service.secretBook)
            let body = JSONValue.object([field: credentials.refreshToken.map(JSONValue.string) ?? .null])
            let response = try await service.exchange(
                APIService.request(.post, contentType: "application/json"), body: Data(body.compactJSON.utf8),
                to: step.url, operation: .bearer,
                outer: credentials.accessToken.map { [HeaderMiddleware.token($0, as: use)] } ?? [],
                recorder: recorder, secrets: secrets, server: revocation.server)
            try APIService.requireSuccess(response, recorder, .bearer, also: step.revoked + step.gone)
        case .bearer(let method):
            // Each token as the bearer of a request of its own, the refresh token first, as RFC 7009 orders it: it is
            // the one that could mint more. A server that takes only access tokens there (Litestar's documented
            // logout) refuses the refresh token; the logout has then revoked what it could once the access token is
            // revoked, and only the access token's refusal is a failure.
            var refused: APIServiceError?
            for token in [credentials.refreshToken, credentials.accessToken].compactMap({ $0 }) {
                let recorder = ResponseRecorder(secrets: service.secretBook)
                let response = try await service.exchange(
                    APIService.request(HTTPRequest.Method(method) ?? .post), body: nil, to: step.url,
                    operation: .revocation, outer: [HeaderMiddleware.token(token, as: use)], recorder: recorder,
                    secrets: secrets, server: revocation.server)
                do throws(APIServiceError) {
                    try APIService.requireSuccess(response, recorder, .revocation, also: step.revoked + step.gone)
                    refused = nil
                } catch {
                    guard token == credentials.refreshToken, (400..<500).contains(response.status.code) else {
                        throw error
                    }
                    refused = error
                }
            }
            if let refused { throw refused }
        case .rfc7009:
            // Revoking the refresh token ends the grant; the access token is revoked too, for servers that keep
            // access tokens alive until they expire.
            let tokens = [(credentials.refreshToken, "refresh_token"), (credentials.accessToken, "access_token")]
            for case (let token?, let hint) in tokens {
                var request = APIService.request(.post, contentType: "application/x-www-form-urlencoded")
                var fields = [("token", token), ("token_type_hint", hint)]
                let secret = credentials.clientSecret
                switch step.clientAuthentication ?? (secret == nil ? .none : .basic) {
                case .none:
                    fields += clientFields(nil, scope: false)
                case .basic:
                    request.headerFields[.authorization] = basic(secret)
                    if secret == nil { fields += clientFields(nil, scope: false) }
                case .post:
                    fields += clientFields(nil, scope: false)
                    if let secret { fields.append(("client_secret", secret)) }
                case .bearer:
                    if let access = credentials.accessToken {
                        request.headerFields[.authorization] = TokenUse.bearer.value(access)
                    }
                }
                let recorder = ResponseRecorder(secrets: service.secretBook)
                let response = try await service.exchange(
                    request, body: Data(FormEncoding.encode(fields).utf8), to: step.url, operation: .revocation,
                    recorder: recorder, secrets: secrets, server: revocation.server)
                try APIService.requireSuccess(response, recorder, .revocation, also: step.revoked + step.gone)
            }
        }
    }

    /// Reads the profile with the access token as the description says it goes, retried on 429, 502, 503 and 504
    /// as every profile is: the answer's object, or the object the description unwraps. An answer that is not
    /// a JSON object is ``APIServiceError/notAProfile(_:)``.
    func profile(_ request: ProfileRequest, through service: APIService) async throws(APIServiceError) -> Profile {
        let step = description.profile
        let recorder = ResponseRecorder(secrets: service.secretBook)
        var message = APIService.request(.get)
        message.headerFields[.accept] = "application/json"
        let response = try await service.exchange(
            message, body: nil, to: step.url, operation: .profile,
            outer: [HeaderMiddleware.token(request.accessToken, as: description.token), RetryingMiddleware()],
            recorder: recorder, secrets: [request.accessToken], server: request.server)
        try APIService.requireSuccess(response, recorder, .profile)
        return try service.reading { () throws(APIServiceError) in
            try Profile(
                answer: recorder.body ?? Data(), contentType: response.headerFields[.contentType],
                unwrapping: step.unwrap)
        }
    }

    /// An HTTP Basic login: there is no login request, so the profile request, with the credentials, checks them.
    /// A refusal (401, 403) is refused credentials, and so is an answer without the member the profile is in, as
    /// Kinto answers its root without `user` when it does not know who asks. The credentials are the session's
    /// token from then on, kept where tokens are kept.
    private func basicLogin(_ attempt: LoginAttempt, password: String, through service: APIService)
        async throws(APIServiceError) -> TokenGrant
    {
        let credentials = Data("\(attempt.accountName.value):\(password)".utf8).base64EncodedString()
        let request = ProfileRequest(server: attempt.server, serverDescription: description, accessToken: credentials)
        do throws(APIServiceError) {
            _ = try await profile(request, through: service)
        } catch {
            switch error {
            case .tokenRejected, .forbidden: throw .badCredentials(status: 401, message: nil)
            case .notAProfile where description.profile.unwrap != nil: throw .badCredentials(status: 200, message: nil)
            default: throw error
            }
        }
        return TokenGrant(accessToken: credentials)
    }

    /// The body of a login or refresh, or, for a refresh token sent as the bearer, none.
    enum TokenRequestBody {
        /// A JSON object; with `nesting`, a member named with dots goes into nested objects.
        case json([String: JSONValue], nesting: Bool)
        case form([(String, String)])
        case bearer(String, TokenUse)
    }

    /// Sends a login or refresh, and reads its answer's tokens where `answer` says they are.
    func tokens(
        from url: URL, _ body: TokenRequestBody, answer: TokenFields, clientSecret: String?,
        operation: APIService.Operation, refusals: [Int], secrets: [String?], server: ServerURL,
        through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        var request: HTTPRequest
        var data: Data?
        var outer: [any ClientMiddleware] = []
        switch body {
        case .json(let members, let nesting):
            request = APIService.request(.post, contentType: "application/json")
            data = Data((nesting ? JSONValue.nesting(members) : JSONValue.object(members)).compactJSON.utf8)
        case .form(let fields):
            request = APIService.request(.post, contentType: "application/x-www-form-urlencoded")
            request.headerFields[.authorization] = basic(clientSecret)
            data = Data(FormEncoding.encode(fields).utf8)
        case .bearer(let token, let use):
            request = APIService.request(.post)
            outer = [HeaderMiddleware.token(token, as: use)]
        }
        request.headerFields[.accept] = "application/json"
        let recorder = ResponseRecorder(secrets: service.secretBook, tokenFields: answer)
        let response = try await service.exchange(
            request, body: data, to: url, operation: operation, outer: outer, recorder: recorder, secrets: secrets,
            server: server)
        try APIService.requireSuccess(response, recorder, operation, refusals: refusals)
        return try service.reading { () throws(APIServiceError) in
            try TokenAnswer.grant(
                from: recorder.body, contentType: response.headerFields[.contentType], fields: answer,
                operation: operation == .login ? "login" : "refresh")
        }
    }

    /// `scope` (unless not wanted) and, for a client without a secret, `client_id`, as form fields.
    func clientFields(_ clientSecret: String?, scope: Bool = true) -> [(String, String)] {
        APIService.clientFields(description, clientSecret: clientSecret, scope: scope)
    }

    func basic(_ clientSecret: String?) -> String? {
        APIService.basic(description, clientSecret: clientSecret)
    }

    /// A member's value as a form writes it: a string as it is, anything else as its JSON text.
    static func formValue(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }
}

extension APIService {
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

    /// `Basic base64(urlencode(id):urlencode(secret))`, RFC 6749 §2.3.1; `nil` without a secret or a client id.
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

    /// Throws the error for a response that is not a success, nor one of the statuses `also` that a description
    /// counts as one (a revocation's "revoked" and "gone"); `refusals` are the statuses a login's document declares
    /// for refused credentials.
    static func requireSuccess(
        _ response: HTTPResponse, _ recorder: ResponseRecorder, _ operation: Operation, refusals: [Int] = [],
        also: [Int] = []
    ) throws(APIServiceError) {
        guard !(200..<300).contains(response.status.code), !also.contains(response.status.code) else { return }
        throw recorder.failure(operation, refusals: refusals)
    }
}
