import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A server shaped like ASP.NET Core Identity's bearer endpoints (`MapIdentityApi`), as Microsoft documents
/// them, for the tests: .NET cannot run here.
///
/// - `POST {prefix}/login` takes `{"email", "password"}` and answers `{"tokenType": "Bearer", "accessToken",
///   "expiresIn", "refreshToken"}`, or 401 with a problem document (`"detail": "Failed"`).
/// - `POST {prefix}/refresh` takes `{"refreshToken"}` and answers the same, or 401 with no body.
/// - `GET {prefix}/manage/info` answers `{"email", "isEmailConfirmed"}` for a bearer token, or 401.
///
/// Its tokens are opaque, as Identity's data-protected tokens are, and there is no revocation endpoint.
final class IdentityServer: Sendable {
    struct State {
        var accessTokens: [String: (email: String, expires: ContinuousClock.Instant)] = [:]
        var refreshTokens: [String: String] = [:]
        var logins = 0
        var refreshes = 0
        var profiles = 0
    }

    let passwords: [String: String]
    let lifetime: Duration
    private let state = Mutex(State())

    init(passwords: [String: String], lifetime: Duration) {
        self.passwords = passwords
        self.lifetime = lifetime
    }

    var logins: Int { state.withLock { $0.logins } }
    var refreshes: Int { state.withLock { $0.refreshes } }
    var profiles: Int { state.withLock { $0.profiles } }

    /// Runs `body` with the URL the endpoints are mapped under: the origin, then `prefix`.
    static func run(
        prefix: String = "", passwords: [String: String] = ["ana@example.com": "Passw0rd!"],
        _ body: @Sendable (String, IdentityServer) async throws -> Void
    ) async throws {
        let server = IdentityServer(passwords: passwords, lifetime: .seconds(3600))
        let router = Router()
        router.post("\(prefix)/login") { request, _ in try await server.login(request) }
        router.post("\(prefix)/refresh") { request, _ in try await server.refresh(request) }
        router.get("\(prefix)/manage/info") { request, _ in server.info(request) }
        // ASP.NET Core's endpoint routing answers a method that a route does not take with 405.
        for path in ["/login", "/refresh"] {
            router.get(RouterPath(prefix + path)) { _, _ in Response(status: .methodNotAllowed) }
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)\(prefix)", server)
        }
    }

    private func login(_ request: Request) async throws -> Response {
        let fields = try await Self.json(request)
        state.withLock { $0.logins += 1 }
        guard let email = fields["email"] as? String, let password = fields["password"] as? String,
            passwords[email] == password
        else {
            return Self.response(
                .unauthorized, contentType: "application/problem+json",
                [
                    "type": "https://tools.ietf.org/html/rfc9110#section-15.5.2", "title": "Unauthorized",
                    "status": 401, "detail": "Failed",
                ])
        }
        return issue(for: email)
    }

    private func refresh(_ request: Request) async throws -> Response {
        let fields = try await Self.json(request)
        let email = state.withLock { state in
            state.refreshes += 1
            return (fields["refreshToken"] as? String).flatMap { state.refreshTokens[$0] }
        }
        guard let email else { return Response(status: .unauthorized) }
        return issue(for: email)
    }

    private func info(_ request: Request) -> Response {
        let token = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let email = state.withLock { state -> String? in
            state.profiles += 1
            guard let token, let grant = state.accessTokens[token], grant.expires > .now else { return nil }
            return grant.email
        }
        guard let email else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }
        return Self.response(.ok, contentType: "application/json", ["email": email, "isEmailConfirmed": false])
    }

    private func issue(for email: String) -> Response {
        let access = "CfDJ8" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let refresh = "CfDJ8" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        state.withLock { state in
            state.accessTokens[access] = (email, .now + lifetime)
            state.refreshTokens[refresh] = email
        }
        return Self.response(
            .ok, contentType: "application/json",
            [
                "tokenType": "Bearer", "accessToken": access, "expiresIn": Int(lifetime.components.seconds),
                "refreshToken": refresh,
            ])
    }

    private static func json(_ request: Request) async throws -> [String: Any] {
        let body = try await request.body.collect(upTo: 1 << 16)
        return (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
    }

    private static func response(_ status: HTTPResponse.Status, contentType: String, _ object: [String: Any])
        -> Response
    {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
