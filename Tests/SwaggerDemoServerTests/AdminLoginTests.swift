import DemoServer
import Foundation
import Hummingbird
import SwaggerAPI
import Testing

@Suite("POST /api/User/AdminLogin", .timeLimit(.minutes(5)))
struct AdminLoginTests {
    @Test("the demo account signs in with username, accessToken and refreshToken")
    func demoAccountSignsIn() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.login()
            #expect(response.status == .ok)
            #expect(response.isJSON)
            let body = try response.decode(Components.Schemas.LoginResponse.self)
            #expect(body.username == AccountDirectory.demoEmail)
            #expect(!body.accessToken.isEmpty)
            #expect(body.refreshToken?.isEmpty == false)
            #expect(body.additionalProperties.value.isEmpty, "unexpected fields in \(response.text)")
        }
    }

    @Test("the access token is a JWT for the e-mail that expires after accessTokenLifetime")
    func accessTokenIsJWT() async throws {
        var options = DemoServer.Options.forTests
        options.accessTokenLifetime = .seconds(600)
        let server = try await TestServer.make(options: options)
        let token = try await server.run { client in try await client.accessToken() }

        #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        let payload = try JWTPayload(token: token)
        #expect(payload.subject == AccountDirectory.demoEmail)
        let expiry = try #require(payload.number("exp"), "no numeric exp in \(payload.json)")
        // The server's clock stands still, so the expiry is exact: its lifetime after the clock, whole seconds up.
        #expect(expiry == (options.clock.now.timeIntervalSince1970 + 600).rounded(.up))
    }

    /// RFC 7519 allows a fraction in a NumericDate, but issuers write whole seconds and many readers decode `exp`
    /// as an integer; the contract for this server is an integer `exp`.
    @Test("exp and iat are whole seconds")
    func claimsAreIntegers() async throws {
        let server = try await TestServer.make()
        let token = try await server.run { client in try await client.accessToken() }
        let payload = try JWTPayload(token: token)
        for claim in ["exp", "iat"] {
            let literal = payload.numberLiteral(claim)
            #expect(literal.flatMap { Int($0) } != nil, "\(claim) is not an integer: \(payload.json)")
        }
    }

    @Test("every login gets a new refresh token")
    func refreshTokensDiffer() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let first = try await client.login().decode(Components.Schemas.LoginResponse.self)
            let second = try await client.login().decode(Components.Schemas.LoginResponse.self)
            let firstRefresh = try #require(first.refreshToken)
            let secondRefresh = try #require(second.refreshToken)
            #expect(firstRefresh != secondRefresh)
        }
    }

    @Test(
        "bad credentials answer 401 invalid_credentials",
        arguments: [
            (AccountDirectory.demoEmail, "wrong-password"),
            ("nobody@example.com", AccountDirectory.demoPassword),
            (AccountDirectory.demoEmail, ""),
        ])
    func badCredentials(email: String, password: String) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.login(email: email, password: password)
            #expect(response.status == .unauthorized)
            #expect(response.isJSON)
            let body = try response.decode(Components.Schemas._Error.self)
            #expect(body.error == "invalid_credentials")
            #expect(body.message?.isEmpty == false)
            #expect(response.headers[.wwwAuthenticate] == nil, "a login is not a bearer-protected resource")
        }
    }

    @Test("e-mail matching ignores case")
    func emailIgnoresCase() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.login(email: "DEMO@EXAMPLE.COM")
            #expect(response.status == .ok)
            let body = try response.decode(Components.Schemas.LoginResponse.self)
            #expect(body.username == AccountDirectory.demoEmail)
        }
    }

    @Test("an app id other than the server's answers 403 unknown_app")
    func wrongAppID() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.login(appId: "someone-else")
            #expect(response.status == .forbidden)
            #expect(response.isJSON)
            let body = try response.decode(Components.Schemas._Error.self)
            #expect(body.error == "unknown_app")
        }
    }

    @Test("the app id the server checks comes from options.appID")
    func customAppID() async throws {
        var options = DemoServer.Options.forTests
        options.appID = "other-app"
        let server = try await TestServer.make(options: options)
        try await server.run { client in
            let withOptionsAppID = try await client.login(appId: "other-app").status
            let withDefaultAppID = try await client.login(appId: "swaggerctl-demo").status
            #expect(withOptionsAppID == .ok)
            #expect(withDefaultAppID == .forbidden)
        }
    }
}
