import AsyncHTTPClient
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// Retries idempotent requests that meet a status that means "try again shortly" (429, 502, 503, 504), as
/// `curl --retry` does: three attempts in all, 250 ms and then 500 ms apart, or after the server's
/// `Retry-After` in seconds when that is no longer than the longest wait, 2 s; a longer one ends the retries.
///
/// Only methods that are safe to repeat (GET, HEAD, OPTIONS, PUT, DELETE) with a body that can be sent again
/// are retried, so a login is never sent twice. A transport error is reported at once (a refused connection
/// will not be accepted a moment later), but for one: a kept-alive connection that the server closed as the
/// request went out, as servers do to idle connections (uvicorn after 5 s). Such a request is sent once more, at
/// once, on a new connection, as RFC 9110 (9.2.2) allows for idempotent methods and as curl does.
struct RetryingMiddleware: ClientMiddleware {
    static let statuses: Set<Int> = [429, 502, 503, 504]
    static let attempts = 3
    static let firstWait: Duration = .milliseconds(250)
    static let longestWait: Duration = .seconds(2)

    /// How to wait: the command loop's timer, or a test's.
    var sleep: @Sendable (Duration) async throws -> Void = { try await CommandLoop.sleep(for: $0) }

    private static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await Self.attempts(
            of: request.method, repeatable: body.map { $0.iterationBehavior == .multiple } ?? true, sleep: sleep,
            status: { ($0.0.status.code, $0.0.headerFields[.retryAfter]) }
        ) {
            try await next(request, body, baseURL)
        }
    }

    /// The answer of `send`'s last attempt: `send` is attempted again as the policy above says, for a request
    /// with `method` whose body, if any, can be sent again (`repeatable`). `status` reads an answer's status
    /// code and `Retry-After`. The middleware and `swaggerctl api`'s requests, which go to AsyncHTTPClient
    /// directly, share it.
    static func attempts<Answer>(
        of method: HTTPRequest.Method, repeatable: Bool, sleep: @Sendable (Duration) async throws -> Void,
        status: (Answer) -> (code: Int, retryAfter: String?), _ send: () async throws -> Answer
    ) async throws -> Answer {
        guard idempotentMethods.contains(method), repeatable else { return try await send() }
        var attempt = 1
        var resent = false
        while true {
            let answer: Answer
            do {
                answer = try await send()
            } catch  where !resent && closedByServer(error) {
                resent = true
                continue
            }
            let (code, retryAfter) = status(answer)
            guard attempt < attempts, statuses.contains(code), let wait = wait(before: attempt, retryAfter: retryAfter)
            else {
                return answer
            }
            if wait > .zero { try await sleep(wait) }
            attempt += 1
        }
    }

    /// Whether `error`, as the transport threw it or as OpenAPIRuntime wraps it, is a connection the server closed.
    static func closedByServer(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        return (cause as? HTTPClientError) == .remoteConnectionClosed
    }

    /// The wait before retry number `attempt`, or `nil` when the server asked for a longer one than allowed.
    static func wait(before attempt: Int, retryAfter: String?) -> Duration? {
        guard let retryAfter, let seconds = Int(retryAfter.trimmingWhitespace()), seconds >= 0 else {
            return min(firstWait * (1 << min(attempt - 1, 30)), longestWait)
        }
        let asked = Duration.seconds(seconds)
        return asked <= longestWait ? asked : nil
    }
}
