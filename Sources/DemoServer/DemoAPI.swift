import Foundation
import Logging
import OpenAPIRuntime
import SwaggerAPI

/// The demo server's implementation of the account API.
struct DemoAPI: APIProtocol {
    let directory: AccountDirectory
    let issuer: TokenIssuer
    let families: SessionFamilies
    let appID: String
    let logger: Logger

    func adminLogin(_ input: Operations.AdminLogin.Input) async throws -> Operations.AdminLogin.Output {
        guard case .json(let request) = input.body else {
            return .badRequest(.init(body: .json(.init(error: "bad_request", message: "Send a JSON body."))))
        }
        guard request.appId == appID else {
            return .forbidden(.init(body: .json(Self.unknownApp)))
        }
        guard let account = try await directory.authenticate(email: request.email, password: request.password)
        else {
            return .unauthorized(
                .init(body: .json(.init(error: "invalid_credentials", message: "Wrong e-mail or password."))))
        }
        let (member, refreshToken) = try await families.start(
            accountKey: account.email.lowercased(), email: account.email)
        logger.info("login: new session", metadata: ["family": "\(member.familyID)"])
        return .ok(.init(body: .json(try await tokens(for: member, refreshToken: refreshToken))))
    }

    func refreshToken(_ input: Operations.RefreshToken.Input) async throws -> Operations.RefreshToken.Output {
        guard case .json(let request) = input.body else {
            return .badRequest(.init(body: .json(.init(error: "bad_request", message: "Send a JSON body."))))
        }
        guard request.appId == appID else {
            return .forbidden(.init(body: .json(Self.unknownApp)))
        }
        switch try await families.rotate(request.refreshToken) {
        case .rotated(let member, let next):
            logger.info("refresh: refresh token rotated", metadata: ["family": "\(member.familyID)"])
            return .ok(.init(body: .json(try await tokens(for: member, refreshToken: next))))
        case .reused(let familyID):
            logger.warning(
                "refresh: a spent refresh token was presented again; session revoked",
                metadata: ["family": "\(familyID)"])
            return .unauthorized(.init(body: .json(Self.invalidGrant)))
        case .rejected:
            return .unauthorized(.init(body: .json(Self.invalidGrant)))
        }
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        guard let token = BearerTokenMiddleware.token, let familyID = await issuer.signedFamily(of: token) else {
            return .unauthorized(.init(body: .json(Self.invalidToken)))
        }
        guard case .json(let request) = input.body else {
            return .badRequest(.init(body: .json(.init(error: "bad_request", message: "Send a JSON body."))))
        }
        for revoked in try await families.revoke(refreshToken: request.refreshToken, familyID: familyID) {
            logger.info("logout: session revoked", metadata: ["family": "\(revoked)"])
        }
        return .noContent(.init())
    }

    func getUser(_ input: Operations.GetUser.Input) async throws -> Operations.GetUser.Output {
        guard let token = BearerTokenMiddleware.token, let member = await issuer.member(of: token),
            let account = try await directory.account(email: member.email)
        else {
            return .unauthorized(.init(body: .json(Self.invalidToken)))
        }
        return .ok(.init(body: .json(try DemoProfile.wire(account.profile))))
    }

    private func tokens(for member: SessionFamilies.Member, refreshToken: String) async throws
        -> Components.Schemas.LoginResponse
    {
        .init(
            username: member.email, accessToken: try await issuer.accessToken(for: member),
            refreshToken: refreshToken)
    }

    private static let unknownApp = Components.Schemas._Error(
        error: "unknown_app", message: "This server does not know that app id.")
    private static let invalidGrant = Components.Schemas._Error(
        error: "invalid_grant", message: "The refresh token is unknown, expired, revoked or already used.")
    private static let invalidToken = Components.Schemas._Error(
        error: "invalid_token", message: "Missing, expired or invalid bearer token.")
}
