import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A real HTTP server on a loopback port that answers the account API's paths with whatever a test scripts:
/// garbage, the wrong shape, nulls, or nothing for a long time. It is for faults that the demo server,
/// which keeps to the contract, never shows.
enum FaultServer {
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var contentType = "application/json"
        var body: String
        var delay: Duration = .zero
        var location: String?
    }

    /// Runs `body` with the base URL of a server that gives `login` for `POST /api/User/AdminLogin` and
    /// `profile` for `GET /api/User/User`.
    static func run(
        login: Reply = Reply(body: #"{"username":"u","accessToken":"fault-token","refreshToken":null}"#),
        profile: Reply = Reply(body: "{}"),
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        try await run(logins: Replies([login]), profiles: Replies([profile])) { url in try await body(url) }
    }

    /// The same, with each path answered by its `Replies` in turn.
    static func run(
        logins: Replies = Replies([Reply(body: #"{"username":"u","accessToken":"fault-token","refreshToken":null}"#)]),
        profiles: Replies,
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        let router = Router()
        router.post("/api/User/AdminLogin") { request, _ in try await respond(logins.next(request)) }
        router.get("/api/User/User") { request, _ in try await respond(profiles.next(request)) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)/api")
        }
    }

    /// Replies given in order, the last one repeating, and the headers of each request that was answered.
    final class Replies: Sendable {
        private let replies: [Reply]
        private let requests = Mutex<[HTTPFields]>([])

        init(_ replies: [Reply]) { self.replies = replies }

        /// How many requests were answered.
        var count: Int { requests.withLock { $0.count } }
        /// The header fields of each request, in order.
        var headers: [HTTPFields] { requests.withLock { $0 } }

        func next(_ request: Request) -> Reply {
            let index = requests.withLock { requests in
                requests.append(request.headers)
                return requests.count - 1
            }
            return replies[min(index, replies.count - 1)]
        }
    }

    private static func respond(_ reply: Reply) async throws -> Response {
        if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
        var headers: HTTPFields = [.contentType: reply.contentType]
        if let location = reply.location { headers[.location] = location }
        return Response(status: reply.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: reply.body)))
    }
}
