import DemoServer
import Hummingbird
import HummingbirdTesting
import SwaggerAPI
import Testing

@Suite("GET /api/User/User", .timeLimit(.minutes(5)))
struct GetUserTests {
    /// The demo profile's fields of the server's own.
    struct DemoExtras: Decodable, Equatable {
        struct Organisation: Decodable, Equatable {
            var name: String
            var city: String
        }

        var role: String
        var organisation: Organisation
    }

    @Test(
        "a request without a valid bearer token answers 401 with a Bearer challenge",
        arguments: [nil, "Bearer garbage", "Bearer ", "Basic ZGVtb0BleGFtcGxlLmNvbTpkZW1vLXBhc3N3b3Jk"])
    func rejectsMissingOrInvalidToken(authorization: String?) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.getUser(authorization: authorization)
            try Self.expectRejected(response)
        }
    }

    @Test("a token from a login returns the demo profile, non-ASCII text and extra fields included")
    func returnsDemoProfile() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let token = try await client.accessToken()
            let response = try await client.getUser(authorization: "Bearer \(token)")
            #expect(response.status == .ok)
            #expect(response.isJSON)
            let user = try response.decode(Components.Schemas.User.self)
            #expect(user.id == 1024)
            #expect(user.name == "Ana")
            #expect(user.surname == "Horvat")
            #expect(user.fullName == "Ana Horvat")
            #expect(user.imageId == -1)
            #expect(user.adress?.contains("Čakovec") == true)
            #expect(user.email == AccountDirectory.demoEmail)
            #expect(
                try reencode(user.additionalProperties, as: DemoExtras.self)
                    == DemoExtras(role: "administrator", organisation: .init(name: "Primjer d.o.o.", city: "Zagreb")))
        }
    }

    @Test("the scheme name is matched without regard to case")
    func schemeIgnoresCase() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let token = try await client.accessToken()
            #expect(try await client.getUser(authorization: "bearer \(token)").status == .ok)
        }
    }

    @Test("a token signed by another server instance answers 401")
    func rejectsTokenFromAnotherServer() async throws {
        let other = try await TestServer.make()
        let foreignToken = try await other.run { client in try await client.accessToken() }
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.getUser(authorization: "Bearer \(foreignToken)")
            try Self.expectRejected(response)
        }
    }

    @Test("a token is rejected once its lifetime has passed")
    func rejectsExpiredToken() async throws {
        var options = DemoServer.Options.forTests
        options.accessTokenLifetime = .seconds(1)
        let server = try await TestServer.make(options: options)
        let clock = options.clock
        try await server.run { client in
            let token = try await client.accessToken()
            #expect(try await client.getUser(authorization: "Bearer \(token)").status == .ok)
            clock.advance(by: .seconds(2))
            let response = try await client.getUser(authorization: "Bearer \(token)")
            try Self.expectRejected(response)
        }
    }

    /// 401, `WWW-Authenticate: Bearer …` and a JSON `invalid_token` error.
    static func expectRejected(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
        let challenge = response.headers[.wwwAuthenticate]
        #expect(
            challenge?.hasPrefix("Bearer") == true, "WWW-Authenticate: \(challenge ?? "none")",
            sourceLocation: sourceLocation)
        #expect(response.isJSON, sourceLocation: sourceLocation)
        let body = try response.decode(Components.Schemas._Error.self)
        #expect(body.error == "invalid_token", sourceLocation: sourceLocation)
    }
}
