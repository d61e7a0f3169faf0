import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A real HTTP server on a loopback port that answers the account API's paths with whatever a test scripts:
/// garbage, the wrong shape, nulls, hostile text, a body dripped a byte at a time, or nothing until the test
/// says so.
/// It is for faults that the demo server, which keeps to the contract, never shows.
enum FaultServer {
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var contentType = "application/json"
        var body: String
        /// When set, the reply waits until the run's ``Gate`` opens: until the test opens it, or its body ends.
        var held = false
        var location: String?
        /// When set, the body is sent one byte at a time with this pause before each.
        var drip: Duration?
        /// Extra header fields, as given.
        var headers: [(String, String)] = []
    }

    static let goodLogin = Reply(body: #"{"username":"u","accessToken":"fault-token","refreshToken":null}"#)

    /// Runs `body` with the base URL of a server that gives `login` for `POST /api/User/AdminLogin` and
    /// `profile` for `GET /api/User/User`.
    static func run(
        login: Reply = goodLogin, profile: Reply = Reply(body: "{}"), gate: Gate = Gate(),
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        try await run(logins: Replies([login]), profiles: Replies([profile]), gate: gate) { url in try await body(url) }
    }

    /// The same, with each path answered by its `Replies` in turn. With `everywhere`, the server listens on
    /// every interface, and `body` gets the port alone as well. Held replies are let go when `body` ends. The API's
    /// document is published at `/api/openapi.yaml`, as the demo server publishes it, less the logout this server
    /// does not have, unless `publishing` is false: then nothing says which API the server is.
    static func run(
        logins: Replies = Replies([goodLogin]), profiles: Replies, refreshes: Replies = Replies([]),
        everywhere: Bool = false, publishing: Bool = true, gate: Gate = Gate(),
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        let router = Router()
        if publishing {
            let document = try Self.documentWithoutLogout()
            router.get("/api/openapi.yaml") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/yaml"],
                    body: .init(byteBuffer: ByteBuffer(bytes: document)))
            }
        }
        router.post("/api/User/AdminLogin") { request, _ in try await respond(logins.next(request), gate) }
        router.get("/api/User/User") { request, _ in try await respond(profiles.next(request), gate) }
        router.post("/api/User/RefreshToken") { request, _ in try await respond(refreshes.next(request), gate) }
        guard everywhere else {
            try await Application(router: router).test(.live) { client in
                let port = try #require(client.port)
                defer { gate.open() }
                try await body("http://127.0.0.1:\(port)/api")
            }
            return
        }
        // HummingbirdTesting always listens on localhost; this server must be reachable from other addresses.
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("0.0.0.0", port: 0)),
            onServerRunning: { listening.yield($0.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var next = ports.makeAsyncIterator()
            let port = try #require(await next.next())
            defer { gate.open() }
            try await body("http://127.0.0.1:\(port)/api")
            group.cancelAll()
        }
    }

    /// The demo server's document without `/User/Logout`, which this server does not answer.
    static func documentWithoutLogout() throws -> Data {
        var text = try String(
            contentsOf: Project.root.appending(path: "Sources/DemoServer/openapi.yaml"), encoding: .utf8)
        guard let logout = text.range(of: "  /User/Logout:"),
            let end = text[logout.upperBound...].range(of: "components:")
        else { throw SupportFailure("the demo document has no /User/Logout to leave out") }
        text.removeSubrange(logout.lowerBound..<end.lowerBound)
        return Data(text.utf8)
    }

    /// Replies given in order, the last one repeating, and each request that was answered.
    final class Replies: Sendable {
        private let replies: [Reply]
        private let requests = Mutex<[(headers: HTTPFields, body: String)]>([])

        init(_ replies: [Reply]) { self.replies = replies }

        /// How many requests were answered.
        var count: Int { requests.withLock { $0.count } }
        /// The header fields of each request, in order.
        var headers: [HTTPFields] { requests.withLock { $0.map(\.headers) } }
        /// The body of each request, as text.
        var bodies: [String] { requests.withLock { $0.map(\.body) } }

        func next(_ request: Request) async throws -> Reply {
            let body = try await request.body.collect(upTo: 1 << 20)
            let index = requests.withLock { requests in
                requests.append((request.headers, String(buffer: body)))
                return requests.count - 1
            }
            return replies[min(index, replies.count - 1)]
        }
    }

    /// Holds ``Reply/held`` replies until it opens, once.
    final class Gate: Sendable {
        private let state = Mutex<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        init() {}

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.isOpen { state.waiting.append(continuation) }
                    return state.isOpen
                }
                if isOpen { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.isOpen = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    private static func respond(_ reply: Reply, _ gate: Gate) async throws -> Response {
        if reply.held { await gate.wait() }
        var headers: HTTPFields = [.contentType: reply.contentType]
        if let location = reply.location { headers[.location] = location }
        for (name, value) in reply.headers {
            if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
        }
        guard let drip = reply.drip else {
            return Response(
                status: reply.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: reply.body)))
        }
        headers[.contentLength] = String(reply.body.utf8.count)
        let bytes = Array(reply.body.utf8)
        return Response(
            status: reply.status, headers: headers,
            body: ResponseBody { writer in
                for byte in bytes {
                    try await Task.sleep(for: drip)
                    try await writer.write(ByteBuffer(bytes: [byte]))
                }
                try await writer.finish(nil)
            })
    }
}
