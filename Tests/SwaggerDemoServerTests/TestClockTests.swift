import DemoServer
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("POST /_test/clock: tokens that expire without waiting", .timeLimit(.minutes(5)))
struct TestClockTests {
    static func server(exposingClock: Bool) async throws -> TestServer {
        var options = DemoServer.Options.forTests
        options.exposesTestClock = exposingClock
        return try await TestServer.make(options: options)
    }

    static func advance(_ client: any TestClientProtocol, _ query: String) async throws -> TestResponse {
        try await client.execute(uri: "/_test/clock?\(query)", method: .post, headers: [:], body: nil)
    }

    @Test("with --test-clock, a connection from this machine moves the clock: a token it issued then expires")
    func advances() async throws {
        let server = try await Self.server(exposingClock: true)
        try await server.run(.live) { client in
            let token = try await client.accessToken()
            #expect(try await Self.advance(client, "advance=899").status == .noContent)
            #expect(try await client.getUser(authorization: "Bearer \(token)").status == .ok)
            #expect(try await Self.advance(client, "advance=2").status == .noContent)
            try GetUserTests.expectRejected(try await client.getUser(authorization: "Bearer \(token)"))
        }
    }

    @Test("a bad or missing number is a 400, and the clock stays where it is")
    func badNumbers() async throws {
        let server = try await Self.server(exposingClock: true)
        let clock = server.options.clock
        let before = clock.now
        try await server.run(.live) { (client) async throws in
            for query in ["", "advance=", "advance=soon", "advance=-5000"] {
                #expect(try await Self.advance(client, query).status == .badRequest, "\(query)")
                #expect(clock.now == before, "\(query) moved the clock")
            }
        }
    }

    @Test("without --test-clock there is no such route; with it, a peer that is not this machine is refused")
    func closedToOthers() async throws {
        try await Self.server(exposingClock: false).run(.live) { client in
            let response = try await Self.advance(client, "advance=5")
            #expect(response.status == .notFound)
        }
        // In-process requests have no peer address, as a request from another machine has none of this one's.
        try await Self.server(exposingClock: true).run { client in
            let response = try await Self.advance(client, "advance=5")
            #expect(response.status == .forbidden)
        }
    }
}
