import Foundation
import OpenAPIRuntime
import SwaggerAPI

/// The demo server's implementation of the account API.
struct DemoAPI: APIProtocol {
    let directory: AccountDirectory
    let issuer: TokenIssuer
    let appID: String

    func adminLogin(_ input: Operations.AdminLogin.Input) async throws -> Operations.AdminLogin.Output {
        guard case .json(let request) = input.body else {
            return .badRequest(.init(body: .json(.init(error: "bad_request", message: "Send a JSON body."))))
        }
        guard request.appId == appID else {
            return .forbidden(
                .init(body: .json(.init(error: "unknown_app", message: "This server does not know that app id."))))
        }
        guard let account = try await directory.authenticate(email: request.email, password: request.password)
        else {
            return .unauthorized(
                .init(body: .json(.init(error: "invalid_credentials", message: "Wrong e-mail or password."))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        username: account.email,
                        accessToken: try await issuer.accessToken(for: account.email),
                        refreshToken: TokenIssuer.refreshToken()))))
    }

    func getUser(_ input: Operations.GetUser.Input) async throws -> Operations.GetUser.Output {
        guard let email = BearerTokenMiddleware.subject, let account = directory.account(email: email) else {
            return .unauthorized(
                .init(body: .json(.init(error: "invalid_token", message: "Missing, expired or invalid bearer token."))))
        }
        return .ok(.init(body: .json(account.profile)))
    }
}
