import DemoServer
import Foundation
import Hummingbird
import HummingbirdTesting
import SwaggerAPI
import Testing

@Suite(
    "POST /api/User/RefreshToken and POST /api/User/Logout: rotation, reuse detection, revocation",
    .timeLimit(.minutes(5)))
struct RefreshTokenTests {
    @Test("a refresh returns new tokens for the same user, and the new access token works")
    func rotates() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let first = try await client.tokens()
            let response = try await client.refresh(first.refreshToken)
            let second = try response.tokens("refresh")
            #expect(response.isJSON)
            #expect(try response.decode(Components.Schemas.LoginResponse.self).username == AccountDirectory.demoEmail)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            #expect(try await client.getUser(authorization: "Bearer \(second.accessToken)").status == .ok)
            // The chain goes on: the new refresh token is good once too.
            #expect(try await client.refresh(second.refreshToken).status == .ok)
        }
    }

    @Test("a spent refresh token presented again is theft: the whole session is revoked, access tokens included")
    func reuseRevokesFamily() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let first = try await client.tokens()
            let second = try await client.refresh(first.refreshToken).tokens("refresh")

            let replay = try await client.refresh(first.refreshToken)
            #expect(replay.status == .unauthorized)
            #expect(try replay.decode(Components.Schemas._Error.self).error == "invalid_grant")
            #expect(replay.headers[.wwwAuthenticate] == nil, "a refresh is not a bearer-protected resource")

            // The thief's and the owner's tokens alike are dead from now on.
            #expect(try await client.refresh(second.refreshToken).status == .unauthorized)
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(second.accessToken)"))
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(first.accessToken)"))
        }
    }

    @Test("revoking one session leaves another login of the same account alone")
    func familiesAreSeparate() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let laptop = try await client.tokens()
            let phone = try await client.tokens()
            _ = try await client.refresh(laptop.refreshToken)
            _ = try await client.refresh(laptop.refreshToken)
            #expect(try await client.getUser(authorization: "Bearer \(phone.accessToken)").status == .ok)
            #expect(try await client.refresh(phone.refreshToken).status == .ok)
        }
    }

    @Test(
        "unknown, empty and expired refresh tokens answer 401; another app id answers 403",
        arguments: ["unknown", "", "expired", "other-app"])
    func rejected(kind: String) async throws {
        var options = DemoServer.Options.forTests
        options.refreshTokenLifetime = .seconds(1)
        let server = try await TestServer.make(options: options)
        let clock = options.clock
        try await server.run { client in
            let tokens = try await client.tokens()
            let response: TestResponse
            switch kind {
            case "expired":
                clock.advance(by: .seconds(2))
                response = try await client.refresh(tokens.refreshToken)
            case "other-app":
                response = try await client.refresh(tokens.refreshToken, appId: "someone-else")
            default:
                response = try await client.refresh(kind)
            }
            #expect(response.status == (kind == "other-app" ? .forbidden : .unauthorized), "\(response.text)")
            #expect(response.isJSON)
        }
    }

    @Test("logout revokes the session: its refresh token and its access tokens stop working; twice is still 204")
    func logoutRevokes() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let tokens = try await client.tokens()
            let logout = try await client.logout(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
            #expect(logout.status == .noContent)
            #expect(logout.body.readableBytes == 0)
            #expect(try await client.refresh(tokens.refreshToken).status == .unauthorized)
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(tokens.accessToken)"))

            let again = try await client.logout(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
            #expect(again.status == .noContent)
            let unknown = try await client.logout(accessToken: tokens.accessToken, refreshToken: "unknown")
            #expect(unknown.status == .noContent)
        }
    }

    @Test("logout accepts an expired access token of this server, but not a missing or foreign one")
    func logoutAuthorization() async throws {
        var options = DemoServer.Options.forTests
        options.accessTokenLifetime = .seconds(1)
        let foreign = try await TestServer.make().run { client in try await client.accessToken() }
        let server = try await TestServer.make(options: options)
        let clock = options.clock
        try await server.run { client in
            let tokens = try await client.tokens()
            clock.advance(by: .seconds(2))
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(tokens.accessToken)"))

            for bearer in [nil, foreign, "garbage"] as [String?] {
                let refused = try await client.logout(accessToken: bearer, refreshToken: tokens.refreshToken)
                #expect(refused.status == .unauthorized, "\(bearer ?? "no bearer")")
                #expect(refused.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            #expect(try await client.refresh(tokens.refreshToken).status == .ok, "a refused logout revoked nothing")

            let expired = try await client.logout(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
            #expect(expired.status == .noContent)
        }
    }

    @Test("with a database file, a restarted server accepts the tokens it issued and the accounts it was given")
    func databasePersists() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "demo-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "demo.sqlite").path
        let seed = AccountDirectory.Seed(email: "kept@example.com", password: "kept-secret")

        let first = try await TestServer.make(seeds: [seed], database: DemoDatabase.open(path: path))
        let tokens = try await first.run { client in
            try await client.tokens(email: "kept@example.com", password: "kept-secret")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        // Restarted without the seed: the account, the key and the session are all in the file.
        let restarted = try await TestServer.make(database: DemoDatabase.open(path: path))
        try await restarted.run { (client) async throws in
            #expect(try await client.getUser(authorization: "Bearer \(tokens.accessToken)").status == .ok)
            #expect(try await client.refresh(tokens.refreshToken).status == .ok)
            #expect(try await client.login(email: "kept@example.com", password: "kept-secret").status == .ok)
        }

        // Without the file, another server knows none of it.
        let stranger = try await TestServer.make()
        try await stranger.run { (client) async throws in
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(tokens.accessToken)"))
        }
    }
}
