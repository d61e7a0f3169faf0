import NIOHTTP1
import SwaggerModel

/// Retries idempotent requests that meet a status that means "try again shortly" (429, 502, 503, 504), as
/// `curl --retry` does: three attempts in all, 250 ms and then 500 ms apart, or after the server's
/// `Retry-After` in seconds when that is no longer than the longest wait, 2 s; a longer one ends the retries.
///
/// It applies to the profile and the person's own requests, and of those only to methods that are safe to repeat
/// (GET, HEAD, OPTIONS, PUT, DELETE), so a login is never sent twice. A body is bytes, which can always be sent
/// again. A transport error is reported at once: a refused connection will not be accepted a moment later, and the
/// one a request may meet by chance, a kept-alive connection that the server closed as it went out, is the
/// transport's to send again (``TransportRequest/resendable``).
enum RetryPolicy {
    static let statuses: Set<UInt> = [429, 502, 503, 504]
    static let attempts = 3
    static let firstWait: Duration = .milliseconds(250)
    static let longestWait: Duration = .seconds(2)

    /// The answer of `send`'s last attempt, and whether the server asked any attempt to slow down (429, or 503
    /// with `Retry-After`). `send` is attempted again as the policy above says when `retrying` and `method` is
    /// idempotent; `sleep` waits between attempts, and `head` reads an answer's status and headers.
    static func attempts<Answer>(
        of method: HTTPMethod, retrying: Bool, sleep: (Duration) async throws -> Void,
        head: (Answer) -> HTTPResponseHead, _ send: () async throws -> Answer
    ) async throws -> (answer: Answer, throttled: Bool) {
        let repeats = retrying && isIdempotent(method)
        var attempt = 1
        var throttled = false
        while true {
            let answer = try await send()
            let head = head(answer)
            let code = head.status.code
            // Only these statuses are read further: a page's headers are not searched for a Retry-After it has no
            // use for.
            guard statuses.contains(code) else { return (answer, throttled) }
            let retryAfter = head.headers.first(name: "Retry-After")
            throttled = throttled || code == 429 || (code == 503 && retryAfter != nil)
            guard repeats, attempt < attempts, let wait = wait(before: attempt, retryAfter: retryAfter) else {
                return (answer, throttled)
            }
            if wait > .zero { try await sleep(wait) }
            attempt += 1
        }
    }

    static func isIdempotent(_ method: HTTPMethod) -> Bool {
        switch method {
        case .GET, .HEAD, .OPTIONS, .PUT, .DELETE: true
        default: false
        }
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
