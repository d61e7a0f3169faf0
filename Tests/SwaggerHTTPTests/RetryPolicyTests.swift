import NIOHTTP1
import Synchronization
import Testing

@testable import SwaggerHTTP

@Suite(
    "RetryPolicy: which attempts are repeated, after which waits, and whether the server asked to slow down",
    .timeLimit(.minutes(5)))
struct RetryPolicyTests {
    /// One scripted outcome of an attempt.
    enum Outcome: Sendable, CustomStringConvertible {
        case status(UInt, retryAfter: String? = nil)
        case failure

        var description: String {
            switch self {
            case .status(let code, let retryAfter): retryAfter.map { "\(code) (Retry-After \($0))" } ?? "\(code)"
            case .failure: "thrown error"
            }
        }
    }

    struct TransportFailure: Error {}

    /// Plays `outcomes` in order as the attempts' answers, and records the attempts and the waits between them.
    final class Script: Sendable {
        private let outcomes: [Outcome]
        private let state = Mutex((attempts: 0, waits: [Duration]()))

        init(_ outcomes: [Outcome]) { self.outcomes = outcomes }

        var attempts: Int { state.withLock { $0.attempts } }
        var waits: [Duration] { state.withLock { $0.waits } }

        func send() throws -> HTTPResponseHead {
            let index = state.withLock { state in
                state.attempts += 1
                return state.attempts - 1
            }
            switch outcomes[min(index, outcomes.count - 1)] {
            case .status(let code, let retryAfter):
                var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: Int(code)))
                if let retryAfter { head.headers.add(name: "Retry-After", value: retryAfter) }
                return head
            case .failure:
                throw TransportFailure()
            }
        }

        func sleep(_ duration: Duration) {
            state.withLock { $0.waits.append(duration) }
        }
    }

    /// What the policy made of a script: the last status (`nil` when an error was thrown), whether it was
    /// throttled, and the attempts and waits.
    struct Run: Equatable, CustomStringConvertible {
        var status: UInt?
        var throttled = false
        var attempts: Int
        var waits: [Duration] = []

        var description: String {
            "status \(status.map(String.init) ?? "none"), throttled \(throttled), \(attempts) attempts, waits \(waits)"
        }
    }

    static let base = Duration.milliseconds(250)

    private func run(_ outcomes: [Outcome], method: HTTPMethod = .GET, retrying: Bool = true) async -> Run {
        let script = Script(outcomes)
        let result = try? await RetryPolicy.attempts(
            of: method, retrying: retrying, sleep: { script.sleep($0) }, head: { $0 }, script.send)
        return Run(
            status: result?.answer.status.code, throttled: result?.throttled ?? false, attempts: script.attempts,
            waits: script.waits)
    }

    @Test(
        "transient statuses are retried with growing waits, up to three attempts",
        arguments: [
            ([Outcome.status(200)], Run(status: 200, attempts: 1)),
            ([.status(503), .status(200)], Run(status: 200, attempts: 2, waits: [base])),
            ([.status(502), .status(504), .status(200)], Run(status: 200, attempts: 3, waits: [base, base * 2])),
            (
                [.status(503), .status(503), .status(503), .status(200)],
                Run(status: 503, attempts: 3, waits: [base, base * 2])
            ),
            ([.status(429), .status(200)], Run(status: 200, throttled: true, attempts: 2, waits: [base])),
        ] as [([Outcome], Run)])
    func retries(outcomes: [Outcome], expected: Run) async {
        #expect(await run(outcomes) == expected)
    }

    @Test(
        "final answers are returned at once",
        arguments: [200, 201, 301, 400, 401, 403, 404, 500, 501] as [UInt])
    func noRetry(status: UInt) async {
        #expect(await run([.status(status), .status(200)]) == Run(status: status, attempts: 1))
    }

    @Test("a thrown transport error is not retried")
    func thrownErrors() async {
        #expect(await run([.failure, .status(200)]) == Run(status: nil, attempts: 1))
    }

    @Test(
        "a POST, such as a login, and a request outside the policy are never repeated",
        arguments: [(HTTPMethod.POST, true), (.PATCH, true), (.GET, false)])
    func notRepeated(method: HTTPMethod, retrying: Bool) async {
        let result = await run([.status(503), .status(200)], method: method, retrying: retrying)
        #expect(result == Run(status: 503, attempts: 1))
    }

    @Test(
        "the idempotent methods are the ones repeated",
        arguments: [
            (HTTPMethod.GET, true), (.HEAD, true), (.OPTIONS, true), (.PUT, true), (.DELETE, true), (.POST, false),
            (.PATCH, false), (.RAW(value: "get"), false),
        ])
    func idempotent(method: HTTPMethod, repeated: Bool) async {
        #expect(await run([.status(502), .status(200)], method: method).attempts == (repeated ? 2 : 1))
    }

    @Test(
        "Retry-After in seconds is honoured up to the maximum wait; a longer one ends the retries",
        arguments: [
            ("1", Run(status: 200, throttled: true, attempts: 2, waits: [.seconds(1)])),
            ("0", Run(status: 200, throttled: true, attempts: 2)),
            ("30", Run(status: 503, throttled: true, attempts: 1)),
            ("Wed, 21 Oct 2015 07:28:00 GMT", Run(status: 200, throttled: true, attempts: 2, waits: [base])),
        ] as [(String, Run)])
    func retryAfter(header: String, expected: Run) async {
        #expect(await run([.status(503, retryAfter: header), .status(200)]) == expected)
    }

    @Test(
        "a 429, or a 503 with Retry-After, on any attempt is throttling, whether or not the request is retried",
        arguments: [
            ([Outcome.status(429)], HTTPMethod.POST, Run(status: 429, throttled: true, attempts: 1)),
            ([.status(503, retryAfter: "0")], .POST, Run(status: 503, throttled: true, attempts: 1)),
            ([.status(503)], .POST, Run(status: 503, attempts: 1)),
            ([.status(502, retryAfter: "0"), .status(200)], .GET, Run(status: 200, attempts: 2)),
            (
                [.status(429, retryAfter: "0"), .status(429, retryAfter: "0"), .status(429, retryAfter: "0")], .GET,
                Run(status: 429, throttled: true, attempts: 3)
            ),
            (
                [.status(504), .status(503, retryAfter: "0"), .status(200)], .GET,
                Run(status: 200, throttled: true, attempts: 3, waits: [base])
            ),
            ([.status(200, retryAfter: "1")], .GET, Run(status: 200, attempts: 1)),
        ] as [([Outcome], HTTPMethod, Run)])
    func throttled(outcomes: [Outcome], method: HTTPMethod, expected: Run) async {
        #expect(await run(outcomes, method: method) == expected)
    }

    @Test(
        "the wait doubles and stops at the longest", arguments: [(1, 250), (2, 500), (3, 1000), (4, 2000), (9, 2000)])
    func waits(attempt: Int, milliseconds: Int) {
        #expect(RetryPolicy.wait(before: attempt, retryAfter: nil) == .milliseconds(milliseconds))
    }
}
