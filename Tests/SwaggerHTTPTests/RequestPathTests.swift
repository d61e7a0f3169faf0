import Foundation
import NIOHTTP1
import SwaggerModel
import Testing

@testable import SwaggerHTTP

/// The one path every request takes, against a real server on a loopback port. The retries it meets are asked
/// for with `Retry-After: 0`, so nothing waits.
@Suite("APIService: the one path of every request, on the wire", .timeLimit(.minutes(5)))
struct RequestPathTests {
    static let tooMany = ScriptedServer.Reply(status: .tooManyRequests, headers: [("Retry-After", "0")])
    static let ok = ScriptedServer.Reply(status: .ok, headers: [("Content-Type", "application/json")], body: "[]")

    /// Runs `body` with a service, which it shuts down after, as a command does: a client freed before its
    /// shutdown stops a debug build.
    static func withService<Value>(
        log: Lines? = nil, _ body: (APIService) async throws -> Value
    ) async throws -> Value {
        let service = APIService(timeout: .seconds(60), log: log?.sink)
        do {
            let value = try await body(service)
            await service.shutdown()
            return value
        } catch {
            await service.shutdown()
            throw error
        }
    }

    /// Sends `swaggerctl api`'s `GET /items` with a token to a server that answers `replies`.
    static func get(
        _ replies: [ScriptedServer.Reply], headers: [HeaderField] = [], log: Lines? = nil
    ) async throws -> (response: APIResponse, server: ScriptedServer) {
        var result: (APIResponse, ScriptedServer)?
        try await ScriptedServer.run(replies) { base, server in
            let url = try #require(URL(string: base + "/items"))
            let response = try await withService(log: log) { service in
                try await service.send(
                    method: "GET", headers: headers, body: nil, to: url, accessToken: "session-token", as: .bearer)
            }
            result = (response, server)
        }
        return try #require(result)
    }

    @Test(
        "a response is throttled when an attempt was answered 429, or 503 with Retry-After, whatever came after",
        arguments: [
            ([tooMany, ok], 200, true, 2),
            ([ok], 200, false, 1),
            ([ScriptedServer.Reply(status: .serviceUnavailable, headers: [("Retry-After", "0")])], 503, true, 3),
            ([ScriptedServer.Reply(status: .notFound)], 404, false, 1),
        ] as [([ScriptedServer.Reply], Int, Bool, Int)])
    func throttled(replies: [ScriptedServer.Reply], status: Int, throttled: Bool, attempts: Int) async throws {
        let (response, server) = try await Self.get(replies)
        #expect(response.status == status)
        #expect(response.throttled == throttled)
        #expect(server.requests.count == attempts)
    }

    @Test(
        "a connection the server closed unanswered is sent once more at once, for a retried idempotent request only",
        arguments: [
            ("GET", true, 1, 200, 2),
            // Only once: a server that keeps closing is down.
            ("GET", true, 2, nil, 2),
            ("POST", true, 1, nil, 1),
            // A document or a probe is not under the policy.
            ("GET", false, 1, nil, 1),
        ] as [(String, Bool, Int, Int?, Int)])
    func closedConnection(method: String, retried: Bool, closes: Int, status: Int?, requests: Int) async throws {
        let replies = Array(repeating: ScriptedServer.Reply(status: .ok, closes: true), count: closes) + [Self.ok]
        try await ScriptedServer.run(replies) { base, server in
            let url = try #require(URL(string: base + "/items"))
            let answer = try? await Self.withService { service in
                retried
                    ? try await service.send(
                        method: method, headers: [], body: nil, to: url, accessToken: nil, as: .bearer)
                    : try await service.send(OutgoingRequest(HTTPMethod(rawValue: method), url))
            }
            #expect(answer?.status == status)
            #expect(server.requests.count == requests)
        }
    }

    @Test("the person's headers replace the defaults; the User-Agent and the token replace the person's")
    func headerPrecedence() async throws {
        let (_, server) = try await Self.get(
            [Self.ok],
            headers: [
                HeaderField(name: "accept", value: "text/csv"), HeaderField(name: "User-Agent", value: "mine/1"),
                HeaderField(name: "Authorization", value: "Bearer mine"), HeaderField(name: "X-Trace", value: "7"),
            ])
        let headers = try #require(server.requests.first).head.headers
        #expect(headers["Accept"] == ["text/csv"])
        #expect(headers["User-Agent"] == ["swaggerctl/\(SwaggerctlVersion.current)"])
        #expect(headers["Authorization"] == ["Bearer session-token"])
        #expect(headers["X-Trace"] == ["7"])
    }

    @Test("a path that begins with two slashes goes to the request's own host, as Glewlwyd's //api/oidc/token does")
    func doubleSlash() async throws {
        try await ScriptedServer.run([Self.ok]) { base, server in
            let url = try #require(URL(string: base + "//api/oidc/token?a=1"))
            let response = try await Self.withService { try await $0.send(OutgoingRequest(.POST, url)) }
            #expect(response.status == 200)
            #expect(server.requests.map(\.head.uri) == ["//api/oidc/token?a=1"])
        }
    }

    @Test("--verbose describes every attempt, the retried one too, with the token hidden")
    func verboseAttempts() async throws {
        let lines = Lines()
        let (response, _) = try await Self.get([Self.tooMany, Self.ok], log: lines)
        #expect(response.status == 200)
        let log = lines.all
        #expect(log.filter { $0.hasPrefix("> GET http://127.0.0.1:") && $0.hasSuffix("/items") }.count == 2, "\(log)")
        #expect(log.contains { $0.hasPrefix("< HTTP/1.1 429 Too Many Requests (") }, "\(log)")
        #expect(log.contains { $0.hasPrefix("< HTTP/1.1 200 OK (") }, "\(log)")
        #expect(log.filter { $0 == "> Authorization: [redacted]" }.count == 2, "\(log)")
        #expect(log.contains("< []"), "\(log)")
        #expect(!log.contains { $0.contains("session-token") }, "\(log)")
    }

    @Test("a bound request retried after a 429 or 503 carries a new proof each time, with a jti of its own")
    func retriedProofs() async throws {
        let key = ProofKey()
        let busy = ScriptedServer.Reply(status: .serviceUnavailable, headers: [("Retry-After", "0")])
        try await ScriptedServer.run([Self.tooMany, busy, Self.ok]) { base, server in
            let url = try #require(URL(string: base + "/items"))
            let response = try await Self.withService { service in
                try await service.proving(with: key).send(
                    method: "GET", headers: [], body: nil, to: url, accessToken: "bound-token", as: .bearer)
            }
            #expect(response.status == 200)
            let proofs = try server.requests.map { request in
                try #require(request.head.headers["DPoP"].first, "every attempt carries a proof")
            }
            #expect(proofs.count == 3)
            let ids = try proofs.map { try #require(ProofTests.parts($0).claims["jti"] as? String) }
            #expect(Set(ids).count == 3, "\(ids)")
        }
    }

    @Test("a login answer's tokens are secrets before any of it is shown, wherever the server echoes them")
    func tokensLearnedFirst() async throws {
        let lines = Lines()
        let answer = ScriptedServer.Reply(
            status: .ok, headers: [("Content-Type", "application/json")],
            body: #"{"access_token":"tok-12345","echo":"tok-12345"}"#)
        try await ScriptedServer.run([answer]) { base, _ in
            let url = try #require(URL(string: base + "/token"))
            let response = try await Self.withService(log: lines) { service in
                try await service.send(OutgoingRequest(.POST, url, yields: .oauth2))
            }
            #expect(response.status == 200)
        }
        #expect(lines.all.contains(#"< {"access_token":"[redacted]","echo":"[redacted]"}"#), "\(lines.all)")
    }
}
