import Foundation
import SessionStorage
import SwaggerModel
import TestSupport
import Testing

/// What `refresh` and `api` say of a session that cannot be renewed, or that the token alone does not
/// describe.
@Suite(
    "Renewal: what refresh and api make of opaque tokens, and of sessions without a refresh token",
    .timeLimit(.minutes(15)))
struct RenewalTests {
    /// An unsigned JWT whose only claim is `exp`, `offset` seconds from now.
    static func jwt(expiresIn offset: TimeInterval) -> String {
        Fixtures.jwt(exp: Int(Date().timeIntervalSince1970 + offset))
    }

    static func login(_ sandbox: Sandbox, _ url: String) async throws {
        let login = try await sandbox.login(url, email: "a@example.com", password: "pw")
        try #require(login.status == 0, "\(login)")
    }

    @Test(
        "a token endpoint that refuses a refresh without invalid_grant keeps the session and quotes why; invalid_grant ends it"
    )
    func onlyDefiniteRefusalsEnd() async throws {
        let sandbox = try Sandbox()
        let granted = FaultServer.Reply(
            body: #"{"access_token":"access-one-0123456789","token_type":"bearer","refresh_token":"refresh-one-0123"}"#)
        let refusals = [
            // Django REST framework's field error, and a bare 401 of a server that wants the token elsewhere.
            FaultServer.Reply(status: .badRequest, body: #"{"refresh":["This field is required."]}"#),
            FaultServer.Reply(status: .unauthorized, body: #"{"msg":"Missing Authorization Header"}"#),
            FaultServer.Reply(status: .badRequest, body: #"{"error":"invalid_client"}"#),
            FaultServer.Reply(status: .badRequest, body: #"{"error":"invalid_grant"}"#),
        ]
        try await FaultServer.run(
            logins: .init([granted]), profiles: .init([.init(body: "{}")]), refreshes: .init(refusals)
        ) { url in
            let login = try await sandbox.swaggerctl(
                [
                    "login", "-s", url, "-e", "ana", "--password-stdin", "--kind", "oauth2", "--login-path",
                    "/User/AdminLogin", "--refresh-path", "/User/RefreshToken", "--profile-path", "/User/User",
                ], stdin: "pw\n")
            try #require(login.status == 0, "\(login)")
            for said in [#"{"refresh":["This field is required."]}"#, "Missing Authorization Header", "invalid_client"]
            {
                let refresh = try await sandbox.swaggerctl("refresh")
                #expect(refresh.status == 1, "\(refresh)")
                #expect(refresh.stderr.contains(said) && !refresh.stderr.contains("--login-path"), "\(refresh)")
                #expect(refresh.stderr.hasPrefix("swaggerctl: Renewal refused (HTTP "), "\(refresh)")
                #expect(refresh.stderr.contains("; the session is kept. Log in again: "), "\(refresh)")
                #expect(try sandbox.sessions.records().count == 1, "the session is kept: \(refresh)")
                #expect(try await sandbox.swaggerctl("token").stdout == "access-one-0123456789\n")
            }
            let ended = try await sandbox.swaggerctl("refresh")
            #expect(ended.status == 4, "\(ended)")
            #expect(try sandbox.sessions.records().isEmpty, "\(ended)")
        }
    }

    @Test("refresh on a server of opaque tokens reports the expiry that its expiresIn gave")
    func opaqueExpiry() async throws {
        let sandbox = try Sandbox()
        try await IdentityServer.run { url, _ in
            let login = try await sandbox.login(
                url, email: IdentityTests.ana.email, password: IdentityTests.ana.password,
                extra: ["--kind", "identity"])
            try #require(login.status == 0, "\(login)")
            let start = Date()
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let expiry = try sandbox.storedExpiry(lifetime: .seconds(3600), since: start)
            #expect(refresh.stdout.contains(": the access token expires \(expiry) (in "), "\(refresh)")
        }
    }

    @Test("refresh without a refresh token says the server gave none, and exits 0 while the token is good, 4 after")
    func noRefreshToken() async throws {
        let sandbox = try Sandbox()
        let token = Self.jwt(expiresIn: 600)
        let login = FaultServer.Reply(body: #"{"username":"u","accessToken":"\#(token)","refreshToken":null}"#)
        try await FaultServer.run(login: login) { url in
            try await Self.login(sandbox, url)
            let good = try await sandbox.swaggerctl("refresh")
            #expect(good.status == 0, "\(good)")
            #expect(
                good.stdout.hasPrefix("\(url) gave no refresh token for a@example.com, so there is nothing to renew; "),
                "\(good)")
            #expect(good.stderr.isEmpty, "\(good)")

            sandbox.advanceClock(by: .seconds(700))
            let expired = try await sandbox.swaggerctl("refresh")
            #expect(expired.status == 4, "\(expired)")
            #expect(
                expired.stderr.contains("has expired, and the server gave no refresh token. Run `swaggerctl login"),
                "\(expired)")
            #expect(try sandbox.sessions.records().count == 1, "a session that cannot be renewed is kept")
        }
    }

    @Test("api: a 401 for a session written before refreshable existed, with no refresh token, keeps the session")
    func oldSessionKept() async throws {
        let sandbox = try Sandbox()
        let refused = FaultServer.Reply(status: .unauthorized, body: #"{"error":"invalid_token"}"#)
        try await FaultServer.run(profile: refused) { url in
            // As an older swaggerctl wrote them: no refreshable, and no refresh token.
            try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
            let record =
                #"{"server":"\#(url)","email":"a@example.com","appId":"swaggerctl-demo","keystore":"file","#
                + #""savedAt":"2026-01-01T00:00:00.000Z"}"#
            try Data(#"{"version":1,"content":[\#(record)]}"#.utf8).writePrivately(to: sandbox.sessionsFile)
            try await sandbox.file.store(
                Credentials(accessToken: "old-access"), for: Account(server: url, name: "a@example.com"))

            // Nothing describes its server: the session is kept, and used again once something does.
            let undescribed = try await sandbox.swaggerctl("api", "/User/User")
            #expect(undescribed.status == 64, "\(undescribed)")
            #expect(undescribed.stderr.contains("has no description of \(url)"), "\(undescribed)")
            try #require(try await sandbox.swaggerctl("server", "set", url, "--preset", "original").status == 0)
            let result = try await sandbox.swaggerctl("api", "/User/User")
            #expect(result.status == 4, "\(result)")
            #expect(result.stdout.contains("invalid_token"), "the refusal is the answer: \(result)")
            #expect(!result.stderr.contains("Your session for"), "the session was not ended: \(result)")
            #expect(try sandbox.sessions.records().map(\.name) == ["a@example.com"])
        }
    }
}
