import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel
import Synchronization
import Testing

@testable import SwaggerHTTP

@Suite("RetryingMiddleware")
struct RetryingMiddlewareTests {
    /// One scripted outcome of an attempt.
    enum Outcome: Sendable, CustomStringConvertible {
        case status(Int, retryAfter: String? = nil)
        case failure
        /// The server closed the kept-alive connection the request went out on.
        case closed

        var description: String {
            switch self {
            case .closed: "connection closed by the server"
            case .status(let code, let retryAfter): retryAfter.map { "\(code) (Retry-After \($0))" } ?? "\(code)"
            case .failure: "thrown error"
            }
        }
    }

    struct TransportFailure: Error {}

    /// Plays `outcomes` in order to the middleware, and records the attempts and the waits between them.
    final class Script: Sendable {
        private let outcomes: [Outcome]
        private let state = Mutex((attempts: 0, waits: [Duration]()))

        init(_ outcomes: [Outcome]) { self.outcomes = outcomes }

        var attempts: Int { state.withLock { $0.attempts } }
        var waits: [Duration] { state.withLock { $0.waits } }

        func next(_ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws -> (HTTPResponse, HTTPBody?) {
            let index = state.withLock { state in
                state.attempts += 1
                return state.attempts - 1
            }
            switch outcomes[min(index, outcomes.count - 1)] {
            case .status(let code, let retryAfter):
                var response = HTTPResponse(status: .init(code: code))
                if let retryAfter { response.headerFields[.retryAfter] = retryAfter }
                return (response, nil)
            case .failure:
                throw TransportFailure()
            case .closed:
                throw HTTPClientError.remoteConnectionClosed
            }
        }

        func sleep(_ duration: Duration) {
            state.withLock { $0.waits.append(duration) }
        }
    }

    static let base = Duration.milliseconds(250)

    private func run(
        _ outcomes: [Outcome], method: HTTPRequest.Method = .get, body: HTTPBody? = nil
    ) async -> (status: Int?, attempts: Int, waits: [Duration]) {
        let script = Script(outcomes)
        var middleware = RetryingMiddleware()
        middleware.sleep = { script.sleep($0) }
        let request = HTTPRequest(method: method, scheme: "http", authority: "h", path: "/api/User/User")
        let status = try? await middleware.intercept(
            request, body: body, baseURL: URL(filePath: "/"), operationID: "getUser", next: script.next
        ).0.status.code
        return (status, script.attempts, script.waits)
    }

    @Test(
        "transient statuses are retried with growing waits, up to three attempts",
        arguments: [
            ([Outcome.status(200)], 200, 1, [Duration]()),
            ([.status(503), .status(200)], 200, 2, [base]),
            ([.status(502), .status(504), .status(200)], 200, 3, [base, base * 2]),
            ([.status(503), .status(503), .status(503), .status(200)], 503, 3, [base, base * 2]),
            ([.status(429), .status(200)], 200, 2, [base]),
        ] as [([Outcome], Int, Int, [Duration])])
    func retries(outcomes: [Outcome], status: Int, attempts: Int, waits: [Duration]) async {
        let result = await run(outcomes)
        #expect(result.status == status)
        #expect(result.attempts == attempts)
        #expect(result.waits == waits)
    }

    @Test(
        "final answers are returned at once",
        arguments: [200, 201, 301, 400, 401, 403, 404, 500, 501])
    func noRetry(status: Int) async {
        let result = await run([.status(status), .status(200)])
        #expect(result.status == status)
        #expect(result.attempts == 1)
    }

    @Test("a thrown transport error is not retried")
    func thrownErrors() async {
        let result = await run([.failure, .status(200)])
        #expect(result.status == nil)
        #expect(result.attempts == 1)
    }

    @Test("a connection the server closed is sent once more at once, for an idempotent request only")
    func closedConnection() async {
        let resent = await run([.closed, .status(200)])
        #expect(resent.status == 200 && resent.attempts == 2 && resent.waits.isEmpty)
        let twice = await run([.closed, .closed, .status(200)])
        #expect(twice.status == nil && twice.attempts == 2, "only once: a server that keeps closing is down")
        let post = await run([.closed, .status(200)], method: .post)
        #expect(post.status == nil && post.attempts == 1)
    }

    @Test("a POST, such as a login, is never repeated")
    func postIsNotRetried() async {
        let result = await run([.status(503), .status(200)], method: .post)
        #expect(result.status == 503)
        #expect(result.attempts == 1)
    }

    @Test("a body that can be read only once is never repeated")
    func singleUseBody() async {
        let stream = AsyncStream<HTTPBody.ByteChunk> { $0.finish() }
        let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
        let result = await run([.status(503), .status(200)], method: .put, body: body)
        #expect(result.attempts == 1)
    }

    @Test(
        "Retry-After in seconds is honoured up to the maximum wait; a longer one ends the retries",
        arguments: [
            ("1", 200, 2, [Duration.seconds(1)]),
            ("0", 200, 2, []),
            ("30", 503, 1, []),
            ("Wed, 21 Oct 2015 07:28:00 GMT", 200, 2, [base]),
        ] as [(String, Int, Int, [Duration])])
    func retryAfter(header: String, status: Int, attempts: Int, waits: [Duration]) async {
        let result = await run([.status(503, retryAfter: header), .status(200)])
        #expect(result.status == status)
        #expect(result.attempts == attempts)
        #expect(result.waits == waits)
    }

    @Test(
        "the wait doubles and stops at the longest", arguments: [(1, 250), (2, 500), (3, 1000), (4, 2000), (9, 2000)])
    func waits(attempt: Int, milliseconds: Int) {
        #expect(RetryingMiddleware.wait(before: attempt, retryAfter: nil) == .milliseconds(milliseconds))
    }
}
