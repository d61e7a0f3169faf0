import Crypto
import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerHTTP

/// A hostile server quotes back everything secret that each kind of sign-in sent: in a refusal, which becomes the
/// error line, and in the profile, which `--verbose` shows and the table, `--json` and the profile's copy on disk
/// hold. None of it may show, in the command that signed in or in a later one (`details` in a new shell), which
/// knows only what the session keeps.
@Suite("Secrets quoted back by the server, for every kind of sign-in and every output", .timeLimit(.minutes(5)))
struct SecretsQuotedTests {
    static let password = "hostile-Passw0rd!"
    static let clientSecret = "client-S3cret-quoted"

    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case post, basic, clientSecret, assertion, dpop

        var testDescription: String { rawValue }

        func description(under server: ServerURL) -> ServerDescription {
            let oauth2: JSONValue = [
                "preset": "oauth2", "login": ["url": "/token"], "profile": ["request": ["url": "/me"]],
                "client": [
                    "id": "cli", "authentication": self == .assertion ? "private_key_jwt" : "client_secret_post",
                ],
            ]
            switch self {
            case .post: return Fixtures.original(server)
            case .basic: return Fixtures.described(["preset": "rabbitmq"], under: server)
            case .clientSecret, .assertion, .dpop: return Fixtures.described(oauth2, under: server)
            }
        }

        var client: ClientProof {
            switch self {
            case .clientSecret: ClientProof(secret: SecretsQuotedTests.clientSecret)
            case .assertion: ClientProof(key: ClientKey(privateKey: P256.Signing.PrivateKey().pemRepresentation))
            case .post, .basic, .dpop: ClientProof()
            }
        }

        /// The service as the session's command makes it: a DPoP session's proves every request with its key.
        func service(_ base: APIService, key: ProofKey) -> APIService {
            self == .dpop ? base.proving(with: key) : base
        }

        /// A login's answer with tokens; a Basic sign-in has none, and its profile answers instead.
        var granted: ScriptedServer.Reply? {
            let json = [("Content-Type", "application/json")]
            switch self {
            case .post:
                return .init(
                    status: .ok, headers: json,
                    body: #"{"accessToken":"access-quoted-1","refreshToken":"refresh-quoted-1","username":"ana"}"#)
            case .basic: return nil
            case .clientSecret, .assertion, .dpop:
                return .init(
                    status: .ok, headers: json,
                    body:
                        #"{"access_token":"access-quoted-1","refresh_token":"refresh-quoted-1","token_type":"\#(self == .dpop ? "DPoP" : "Bearer")"}"#
                )
            }
        }
    }

    static let refusal = ScriptedServer.Reply(
        status: .badRequest, headers: [("Content-Type", "application/json")],
        body: #"{"message":"no such user: {echo}","error":"invalid_request","error_description":"{echo}"}"#)
    static let quotingProfile = ScriptedServer.Reply(
        status: .ok, headers: [("Content-Type", "application/json")], body: #"{"name":"ana","said":"{echo}"}"#)

    /// What each request carried that must not show: the password, the client's secret and key, every
    /// credential header, and a Basic one's account and password.
    static func secrets(_ server: ScriptedServer, shape: Shape) -> [String] {
        var found = [password, clientSecret, "access-quoted-1", "refresh-quoted-1"]
        found += shape.client.secrets.compactMap { $0 }
        for request in server.requests {
            found += request.head.headers["Authorization"]
            found += request.head.headers["Authorization"].map { $0.split(separator: " ").last.map(String.init) ?? "" }
            for pair in request.body.split(separator: "&") where pair.hasPrefix("client_assertion=") {
                found.append(String(pair.dropFirst("client_assertion=".count)))
            }
        }
        return found.filter { $0.count >= 8 }
    }

    static func attempt(_ shape: Shape, at base: String) -> LoginAttempt {
        let server = Fixtures.serverURL(base)
        return LoginAttempt(
            server: server, name: AccountName("ana", isEmail: false),
            serverDescription: shape.description(under: server),
            appID: "app")
    }

    static func leaks(_ text: String, of secrets: [String]) -> [String] {
        secrets.filter { text.contains($0) }
    }

    @Test(
        "a refusal that quotes what the sign-in sent shows none of it on the error line or under --verbose",
        arguments: Shape.allCases)
    func refusal(shape: Shape) async throws {
        let lines = Lines()
        try await ScriptedServer.run([Self.refusal]) { base, server in
            let attempt = Self.attempt(shape, at: base)
            let base = APIService(timeout: .seconds(60), log: lines.sink)
            let service = shape.service(base, key: ProofKey())
            var failure: APIServiceError?
            do throws(APIServiceError) {
                _ = try await service.login(attempt, password: Self.password, client: shape.client)
            } catch {
                failure = error
            }
            await base.shutdown()
            let error = try #require(failure, "the login was refused")
            let shown = "\(error)"
            #expect(shown.contains("[redacted]"), "the server's words are in the error: \(shown)")
            let secrets = Self.secrets(server, shape: shape)
            #expect(Self.leaks(shown, of: secrets).isEmpty, "\(shown)")
            #expect(Self.leaks(lines.all.joined(separator: "\n"), of: secrets).isEmpty, "\(lines.all)")
        }
    }

    @Test(
        "a profile that quotes what the requests sent hides it in the profile and under --verbose, then and later",
        arguments: Shape.allCases)
    func profile(shape: Shape) async throws {
        let key = ProofKey()
        try await ScriptedServer.run([shape.granted, Self.quotingProfile].compactMap { $0 }) { base, server in
            let attempt = Self.attempt(shape, at: base)
            // The login's command, which learns the password as it sends it, and then `details` in a new shell,
            // which knows only the stored token.
            var profiles: [Profile] = []
            var logs: [[String]] = []
            var token: String?
            for later in [false, true] {
                let lines = Lines()
                let base = APIService(timeout: .seconds(60), log: lines.sink)
                let service = shape.service(base, key: key)
                if !later {
                    token = try await service.login(attempt, password: Self.password, client: shape.client).accessToken
                }
                profiles.append(
                    try await service.profile(
                        ProfileRequest(
                            server: attempt.server, serverDescription: attempt.serverDescription,
                            accessToken: try #require(token))))
                await base.shutdown()
                logs.append(lines.all)
            }
            let secrets = Self.secrets(server, shape: shape)
            for (profile, log) in zip(profiles, logs) {
                guard case .string(let said)? = profile.fields["said"] else {
                    Issue.record("the profile has its quote: \(profile)")
                    continue
                }
                #expect(said.contains("[redacted]"), "the profile quoted the request: \(said)")
                #expect(Self.leaks(said, of: secrets).isEmpty, "\(said)")
                #expect(Self.leaks(log.joined(separator: "\n"), of: secrets).isEmpty, "\(log)")
            }
        }
    }
}
