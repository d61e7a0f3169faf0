import FoundationEssentials
import OpenAPIRuntime
import SwaggerAPI
import SwaggerModel

/// The account API of `openapi.yaml`, through the client generated from it: every request is the document's, and
/// every answer is checked against its schemas before it is believed.
struct BundledAPI: ServerFamily {
    func login(_ attempt: LoginAttempt, password: String, clientSecret: String?, through service: APIService)
        async throws(APIServiceError) -> TokenGrant
    {
        let recorder = ResponseRecorder(secrets: service.secretBook, tokenFields: .camelCase)
        let body = Components.Schemas.LoginRequest(
            email: attempt.accountName.value, password: password, appId: attempt.appID)
        let output = try await service.perform(
            server: attempt.server, operation: .login, recorder: recorder, secrets: [password]
        ) { client in
            try await client.adminLogin(body: .json(body))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let answer) = ok.body else { throw .contractViolation("the login response is not JSON") }
            return try Self.grant(answer, of: "login")
        case .badRequest, .unauthorized, .forbidden, .contentTooLarge, .undocumented:
            throw recorder.failure(.login)
        }
    }

    func refresh(_ request: RefreshRequest, through service: APIService) async throws(APIServiceError) -> TokenGrant {
        let recorder = ResponseRecorder(secrets: service.secretBook, tokenFields: .camelCase)
        let output = try await service.perform(
            server: request.server, operation: .refresh, recorder: recorder, secrets: [request.refreshToken]
        ) { client in
            try await client.refreshToken(body: .json(.init(refreshToken: request.refreshToken, appId: request.appID)))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let answer) = ok.body else { throw .contractViolation("the refresh response is not JSON") }
            return try Self.grant(answer, of: "refresh")
        case .badRequest, .unauthorized, .forbidden, .contentTooLarge, .undocumented:
            throw recorder.failure(.refresh)
        }
    }

    /// `POST /User/Logout` names the session by its refresh token and stops it and every access token of the same
    /// login.
    func revoke(_ revocation: Revocation, through service: APIService) async throws(APIServiceError) {
        let credentials = revocation.credentials
        // Without a refresh token there is nothing to end, as LogoutCoordinator decides before it asks.
        guard let refreshToken = credentials.refreshToken else { return }
        let recorder = ResponseRecorder(secrets: service.secretBook)
        let output = try await service.perform(
            server: revocation.server, operation: .bearer,
            outer: credentials.accessToken.map { [HeaderMiddleware.token($0, as: .bearer)] } ?? [],
            recorder: recorder, secrets: [credentials.accessToken, refreshToken]
        ) { client in
            try await client.logout(body: .json(.init(refreshToken: refreshToken)))
        }
        switch output {
        case .noContent:
            return
        case .badRequest, .unauthorized, .contentTooLarge, .undocumented:
            throw recorder.failure(.bearer)
        }
    }

    func profile(_ request: ProfileRequest, through service: APIService) async throws(APIServiceError) -> Profile {
        let recorder = ResponseRecorder(secrets: service.secretBook)
        // The recorder sits inside the retries, so it keeps the body of the attempt that counts: the last.
        let output = try await service.perform(
            server: request.server, operation: .profile,
            outer: [HeaderMiddleware.token(request.accessToken, as: .bearer), RetryingMiddleware()],
            recorder: recorder, secrets: [request.accessToken]
        ) { client in
            try await client.getUser()
        }
        switch output {
        case .ok:
            // The generated client has already checked the body against the User schema.
            return try service.reading { () throws(APIServiceError) in
                try Profile(answer: recorder.body ?? Data(), contentType: nil)
            }
        case .unauthorized, .undocumented:
            throw recorder.failure(.profile)
        }
    }

    /// The tokens of a login or refresh answer, which must carry an access token that can be a token.
    private static func grant(_ body: Components.Schemas.LoginResponse, of operation: String)
        throws(APIServiceError) -> TokenGrant
    {
        guard !body.accessToken.isEmpty else {
            throw .contractViolation("the \(operation) response has no access token")
        }
        let refresh = body.refreshToken.flatMap { $0.isEmpty ? nil : $0 }
        guard Credentials.isToken(body.accessToken), refresh.map(Credentials.isToken) ?? true else {
            throw .contractViolation("the \(operation) response's token has characters that no token has")
        }
        return TokenGrant(accessToken: body.accessToken, refreshToken: refresh, username: body.username)
    }
}
