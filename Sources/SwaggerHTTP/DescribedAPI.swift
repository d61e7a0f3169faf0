import FoundationEssentials
import NIOHTTP1
import SwaggerModel

/// A server's requests as its ``ServerDescription`` says them, sent by ``APIService/send(_:)``: the one sender of
/// every server's login, refresh, revocation and profile.
struct DescribedAPI {
    let description: ServerDescription

    /// The account and the password in the members the login names, with its other members, as JSON or as a
    /// form; a form to a token endpoint carries the client's fields too (RFC 6749 §4.3, a client secret by HTTP
    /// Basic, §2.3.1). Refused credentials are ``APIServiceError/badCredentials(status:message:)``.
    func login(_ attempt: LoginAttempt, password: String, client: ClientProof, through service: APIService)
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
            body = .form(ordered.map { ($0.key, Self.formValue($0.value)) }, scope: true)
        }
        return try await tokens(
            from: login.url, body, answer: login.answer, client: client, operation: .login,
            refusals: login.refusals, secrets: [password] + client.secrets, server: attempt.server, through: service)
    }

    /// Asks the token endpoint for tokens for the client itself (RFC 6749 §4.4), at login and at each renewal.
    func clientCredentials(
        _ client: ClientProof, server: ServerURL, operation: APIService.Operation,
        through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        try await tokens(
            from: tokenURL(for: client), .form([("grant_type", "client_credentials")], scope: true),
            answer: description.login.answer, client: client, operation: operation, refusals: [],
            secrets: client.secrets, server: server, through: service)
    }

    /// The refresh token in a JSON member, as OAuth 2's `grant_type=refresh_token` (RFC 6749 §6), or as the
    /// bearer. A refused refresh (a 401, or `invalid_grant`) is ``APIServiceError/refreshRejected``.
    func refresh(_ request: RefreshRequest, through service: APIService) async throws(APIServiceError) -> TokenGrant {
        let refreshToken: String
        switch request.renewal {
        case .refreshToken(let token): refreshToken = token
        case .clientCredentials:
            // A refusal now is the client's, whose proof no longer holds: the session has ended.
            do throws(APIServiceError) {
                return try await clientCredentials(
                    request.client, server: request.server, operation: .login, through: service)
            } catch {
                if case .badCredentials = error { throw .refreshRejected }
                throw error
            }
        }
        guard let step = description.refresh else { throw .refreshRejected }
        let body: TokenRequestBody
        switch step.shape {
        case .grant:
            body = .form([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], scope: false)
        case .json(let field):
            var members: [String: JSONValue] = [field: .string(refreshToken)]
            if let appID = step.appID { members[appID] = .string(request.appID) }
            body = .json(members, nesting: false)
        case .bearer:
            body = .bearer(refreshToken, step.token ?? description.token)
        }
        return try await tokens(
            from: step.url, body, answer: step.answer ?? description.login.answer, client: request.client,
            operation: step.shape == .grant ? .oauth2Refresh : .refresh, refusals: [],
            secrets: [refreshToken] + request.client.secrets, server: request.server, through: service)
    }

    /// RFC 7009 revokes the refresh token and then the access token (§2.1), its client authenticated as the
    /// description says; a JSON member carries the refresh token, with the access token as the bearer; or each
    /// token is the bearer of a request of its own.
    func revoke(_ revocation: Revocation, through service: APIService) async throws(APIServiceError) {
        guard let step = description.revocation else { return }
        let credentials = revocation.credentials
        let secrets = [credentials.accessToken, credentials.refreshToken] + credentials.client.secrets
        let use = description.token
        switch step.shape {
        case .json(let field):
            let body = JSONValue.object([field: credentials.refreshToken.map(JSONValue.string) ?? .null])
            let response = try await service.send(
                OutgoingRequest(
                    .POST, step.url, headers: ["Content-Type": "application/json"], body: Data(body.compactJSON.utf8),
                    credential: credentials.accessToken.map { Credential(token: $0, use: use) }, secrets: secrets,
                    server: revocation.server))
            try service.requireSuccess(response, .bearer, also: step.revoked + step.gone)
        case .bearer(let method):
            // Each token as the bearer of a request of its own, the refresh token first, as RFC 7009 orders it: it is
            // the one that could mint more. A server that takes only access tokens there (Litestar's documented
            // logout) refuses the refresh token; the logout has then revoked what it could once the access token is
            // revoked, and only the access token's refusal is a failure.
            var refused: APIServiceError?
            for token in [credentials.refreshToken, credentials.accessToken].compactMap({ $0 }) {
                let response = try await service.send(
                    OutgoingRequest(
                        HTTPMethod(rawValue: method), step.url, credential: Credential(token: token, use: use),
                        secrets: secrets, server: revocation.server))
                do throws(APIServiceError) {
                    try service.requireSuccess(response, .revocation, also: step.revoked + step.gone)
                    refused = nil
                } catch {
                    guard token == credentials.refreshToken, (400..<500).contains(response.status) else {
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
                let fields = [("token", token), ("token_type_hint", hint)]
                // The access token as the bearer is the client's credential here, proven like any use of it where the
                // session's tokens are bound to a key.
                let bearer = step.clientAuthentication == .bearer
                // A client proven by its certificate revokes where the server asks for it.
                let url = credentials.clientKey?.certificate == nil ? step.url : description.mtls.revocation ?? step.url
                let form = try APIService.clientForm(
                    description, bearer ? ClientProof() : credentials.client, to: url, fields: fields,
                    scope: false, method: bearer ? ClientAuthentication.none : step.clientAuthentication)
                let response = try await service.send(
                    OutgoingRequest(
                        .POST, url, headers: form.headers, body: form.body,
                        credential: bearer ? credentials.accessToken.map { Credential(token: $0, use: .bearer) } : nil,
                        secrets: secrets + [form.assertion], server: revocation.server))
                try service.requireSuccess(response, .revocation, also: step.revoked + step.gone)
            }
        }
    }

    /// Reads the profile with the access token as the description says it goes, retried on 429, 502, 503 and 504
    /// as every profile is: the answer's object, or the object the description unwraps. An answer that is not
    /// a JSON object is ``APIServiceError/notAProfile(_:)``.
    func profile(_ request: ProfileRequest, through service: APIService) async throws(APIServiceError) -> Profile {
        // A client that signed in as itself has no person to ask the server about; its token says who it is.
        if let client = request.client { return Profile(client: client, token: request.accessToken) }
        let step = description.profile
        let response = try await service.send(
            OutgoingRequest(
                .GET, step.url, headers: ["Accept": "application/json"],
                credential: Credential(token: request.accessToken, use: description.token), retries: true,
                server: request.server))
        try service.requireSuccess(response, .profile)
        return try service.reading { () throws(APIServiceError) in
            try Profile(answer: response.body, contentType: response.header("Content-Type"), unwrapping: step.unwrap)
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
        /// A form's own fields, to which the client's proof is added, and the `scope` where wanted.
        case form([(String, String)], scope: Bool)
        case bearer(String, TokenUse)
    }

    /// Sends a login or refresh, and reads its answer's tokens where `answer` says they are.
    func tokens(
        from url: URL, _ body: TokenRequestBody, answer: TokenFields, client: ClientProof,
        operation: APIService.Operation, refusals: [Int], secrets: [String?], server: ServerURL,
        through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        var request = OutgoingRequest(.POST, url, secrets: secrets, tokenFields: answer, server: server)
        switch body {
        case .json(let members, let nesting):
            request.headers = ["Content-Type": "application/json", "Accept": "application/json"]
            request.body = Data((nesting ? JSONValue.nesting(members) : JSONValue.object(members)).compactJSON.utf8)
        case .form(let fields, let scope):
            let form = try APIService.clientForm(description, client, to: url, fields: fields, scope: scope)
            (request.headers, request.body) = (form.headers, form.body)
            request.secrets.append(form.assertion)
        case .bearer(let token, let use):
            request.headers = ["Accept": "application/json"]
            request.credential = Credential(token: token, use: use)
        }
        let response = try await service.send(request)
        try service.requireSuccess(response, operation, refusals: refusals)
        return try service.reading { () throws(APIServiceError) in
            try TokenAnswer.grant(
                from: response.body, contentType: response.header("Content-Type"), fields: answer,
                operation: operation == .login ? "login" : "refresh", bound: service.proofKey != nil)
        }
    }

    /// The token endpoint for `client`: its alias for certificates (RFC 8705 §5), where the client proves itself
    /// with one and the server names one.
    func tokenURL(for client: ClientProof) -> URL {
        client.key?.certificate == nil ? description.login.url : description.mtls.token ?? description.login.url
    }

    /// A member's value as a form writes it: a string as it is, anything else as its JSON text.
    static func formValue(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }
}

extension APIService {
    /// A form to `endpoint` from the description's client: `fields`, the `scope` where wanted, and the client's
    /// proof, as `method` says, else as the description says, else as the proof allows: a private key signs an
    /// assertion (RFC 7523) or, with its certificate, is shown in TLS (RFC 8705); a secret goes by HTTP Basic
    /// (RFC 6749 §2.3.1); a public client sends its `client_id`.
    static func clientForm(
        _ description: ServerDescription, _ client: ClientProof, to endpoint: URL, fields: [(String, String)],
        scope: Bool, method: ClientAuthentication? = nil
    ) throws(APIServiceError) -> (headers: HTTPHeaders, body: Data, assertion: String?) {
        var fields = fields
        var assertion: String?
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if scope, let value = description.scope { fields.append(("scope", value)) }
        let clientID = description.clientID
        switch (method ?? description.clientAuthentication ?? Self.authentication(of: client), clientID) {
        case (.basic, let clientID?) where client.secret != nil:
            let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(client.secret ?? "")
            headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        case (.post, let clientID?) where client.secret != nil:
            fields += [("client_id", clientID), ("client_secret", client.secret ?? "")]
        case (.privateKeyJWT, let clientID?) where client.key != nil:
            guard let key = client.key else { break }
            let signed = try ClientAssertion.make(key, clientID: clientID, endpoint: endpoint, now: Date())
            fields += [
                ("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", signed),
            ]
            assertion = signed
        default:
            // A public client, a client proven in TLS, and one whose proof is not at hand name themselves.
            if let clientID { fields.append(("client_id", clientID)) }
        }
        headers.add(name: "Accept", value: "application/json")
        // The assertion goes back for the request's secrets: good for a minute, it is hidden wherever the request is
        // shown, as a secret is.
        return (headers, Data(FormEncoding.encode(fields).utf8), assertion)
    }

    /// How a client with `proof` proves itself when nothing says how.
    static func authentication(of proof: ClientProof) -> ClientAuthentication {
        if let key = proof.key { return key.certificate == nil ? .privateKeyJWT : .tlsClientAuth }
        return proof.secret == nil ? .none : .basic
    }
}
