import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@Suite("APIService against a live loopback server", .timeLimit(.minutes(15)))
struct APIServiceTests {
    /// A bound on a hung request, generous for a busy machine; the timeout's own test sets a short one.
    static let patience: Duration = .seconds(60)

    static func profile(_ service: APIService, at url: String, token: String = "t") async throws(APIServiceError)
        -> Profile
    {
        let server = Fixtures.serverURL(url)
        return try await service.profile(
            ProfileRequest(server: server, serverDescription: Fixtures.original(server), accessToken: token))
    }

    static func login(_ service: APIService, at url: String) async throws(APIServiceError) -> TokenGrant {
        let server = Fixtures.serverURL(url)
        let attempt = LoginAttempt(
            server: server, name: AccountName("e", isEmail: true), serverDescription: Fixtures.original(server),
            appID: "x")
        return try await service.login(attempt, password: "p", client: ClientProof())
    }

    @Test("the delegate hears waiting on and off around the request; the profile is exactly as received")
    func reportsProfile() async throws {
        try await FaultServer.run(profile: .init(body: #"{"id": 3, "name": null, "extra": {"a": 1}}"#)) { url in
            let delegate = RecordingDelegate()
            let service = APIService(timeout: Self.patience, delegate: delegate)
            let profile = try await Self.profile(service, at: url)
            await service.shutdown()
            let expected = Profile(fields: ["id": .integer(3), "name": .null, "extra": .object(["a": .integer(1)])])
            #expect(profile == expected)
            #expect(delegate.reports == [true, false])
        }
    }

    @Test("a login returns both tokens and the user name")
    func login() async throws {
        let reply = FaultServer.Reply(body: #"{"username": "ana", "accessToken": "a.b.c", "refreshToken": "r"}"#)
        try await FaultServer.run(login: reply) { url in
            let service = APIService(timeout: Self.patience)
            let login = try await Self.login(service, at: url)
            await service.shutdown()
            #expect(login.credentials == Credentials(accessToken: "a.b.c", refreshToken: "r"))
            #expect(login.username == "ana")
        }
    }

    @Test(
        "login failures are classified by status and body",
        arguments: [
            (
                FaultServer.Reply(status: .unauthorized, body: #"{"error":"x"}"#),
                APIServiceError.badCredentials(status: 401, message: "x")
            ),
            (
                FaultServer.Reply(status: .forbidden, contentType: "text/html", body: "<p>no</p>"),
                .badCredentials(status: 403, message: nil)
            ),
            (
                FaultServer.Reply(
                    status: .forbidden,
                    body: #"{"error":"unknown_app","message":"This server does not know that app id."}"#),
                .badCredentials(status: 403, message: "This server does not know that app id.")
            ),
            (
                FaultServer.Reply(
                    status: .badRequest, contentType: "application/problem+json",
                    body: #"{"type":"about:blank","title":"Bad Request","detail":"appId is required"}"#),
                .requestRejected(status: 400, message: "appId is required")
            ),
            // RFC 6749's code for refused credentials refuses them, whatever the login.
            (
                FaultServer.Reply(
                    status: .badRequest, body: #"{"error":"invalid_grant","error_description":"Bad password."}"#),
                .badCredentials(status: 400, message: "Bad password.")
            ),
            // A 400 that speaks of the credentials refuses them; one that does not is the request's fault.
            (
                FaultServer.Reply(
                    status: .badRequest, body: #"{"non_field_errors":["Unable to log in with provided credentials."]}"#),
                .badCredentials(
                    status: 400, message: "Unable to log in with provided credentials.")
            ),
            (
                FaultServer.Reply(status: .badRequest, body: #"{"error":"invalid_scope"}"#),
                .requestRejected(status: 400, message: "invalid_scope")
            ),
            (
                FaultServer.Reply(status: .badRequest, body: #"{"error":"bad_request","message":"Send JSON."}"#),
                .requestRejected(status: 400, message: "Send JSON.")
            ),
            (
                FaultServer.Reply(status: .notFound, contentType: "text/html", body: "<p>?</p>"),
                .requestRejected(status: 404, message: nil)
            ),
            (FaultServer.Reply(status: .badGateway, body: ""), .serverFailed(status: 502)),
            (
                FaultServer.Reply(body: #"{"username":"u"}"#),
                .contractViolation(#"the login response has no access token in "accessToken""#)
            ),
            (
                FaultServer.Reply(body: #"{"accessToken":""}"#),
                .contractViolation(#"the login response has no access token in "accessToken""#)
            ),
            (
                FaultServer.Reply(body: "{nope"),
                .contractViolation(#"the login response is not JSON: it sent "application/json" instead of JSON"#)
            ),
            (
                FaultServer.Reply(contentType: "text/html", body: "<html/>"),
                .contractViolation(#"the login response's Content-Type is "text/html", not JSON"#)
            ),
            (
                FaultServer.Reply(body: String(repeating: " ", count: 1 << 21)),
                .contractViolation("the response is larger than 1024 KiB")
            ),
            // An error answer is cut at the limit, not refused: its status says what went wrong.
            (
                FaultServer.Reply(status: .badRequest, body: String(repeating: " ", count: 1 << 21)),
                .requestRejected(status: 400, message: nil)
            ),
        ] as [(FaultServer.Reply, APIServiceError)])
    func loginFailures(reply: FaultServer.Reply, expected: APIServiceError) async throws {
        try await FaultServer.run(login: reply) { url in
            let delegate = RecordingDelegate()
            let service = APIService(timeout: Self.patience, delegate: delegate)
            let error = await #expect(throws: APIServiceError.self) { try await Self.login(service, at: url) }
            await service.shutdown()
            #expect(error == expected)
            #expect(delegate.reports == [true, false])
        }
    }

    @Test("a 401 on the profile is a rejected token; a 403 is a token the server will not serve")
    func profileStatuses() async throws {
        for (status, expected) in [
            (401, APIServiceError.tokenRejected(challenge: nil)), (403, .forbidden(message: nil)),
        ] {
            try await FaultServer.run(profile: .init(status: .init(code: status), contentType: "text/plain", body: ""))
            {
                url in
                let service = APIService(timeout: Self.patience)
                let error = await #expect(throws: APIServiceError.self) { try await Self.profile(service, at: url) }
                await service.shutdown()
                #expect(error == expected)
            }
        }
    }

    @Test("a redirect is not followed, so the token never goes to another host")
    func redirect() async throws {
        let reply = FaultServer.Reply(
            status: .found, contentType: "text/html", body: "", location: "http://elsewhere.invalid/api")
        try await FaultServer.run(profile: reply) { url in
            let service = APIService(timeout: Self.patience)
            let error = await #expect(throws: APIServiceError.self) {
                try await Self.profile(service, at: url, token: "secret")
            }
            await service.shutdown()
            #expect(error == .redirected(status: 302, location: "http://elsewhere.invalid/api"))
        }
    }

    @Test("no server listening is unreachable, and a slow one times out")
    func transport() async throws {
        // A refusal must not be mistaken for a timeout on a busy machine: only the held reply gets a short one.
        let patient = APIService(timeout: .seconds(120))
        let refused = await #expect(throws: APIServiceError.self) {
            try await Self.profile(patient, at: "http://127.0.0.1:9/api")
        }
        await patient.shutdown()
        #expect(refused == .unreachable("connection refused"))
        let service = APIService(timeout: .seconds(3))
        try await FaultServer.run(profile: .init(body: "{}", held: true)) { url in
            let slow = await #expect(throws: APIServiceError.self) { try await Self.profile(service, at: url) }
            #expect(slow == .timedOut)
        }
        await service.shutdown()
    }
}
