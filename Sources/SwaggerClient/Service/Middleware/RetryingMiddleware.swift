import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Retries idempotent requests that meet a transient failure, waiting longer before each new attempt.
///
/// Only methods that are safe to repeat (GET, HEAD, OPTIONS, PUT, DELETE) with no streaming body are
/// retried, so a login is never sent twice. By default only statuses that mean "try again shortly" are
/// retried, as `curl --retry` does; a refused connection is reported at once. A `Retry-After` header in
/// seconds is honoured when it is no longer than ``DelayPolicy/exponential(base:maximum:)``'s maximum;
/// a longer one ends the retries.
struct RetryingMiddleware: ClientMiddleware {
    /// What makes an attempt worth repeating.
    enum RetryableSignal: Hashable, Sendable {
        /// This HTTP status.
        case code(Int)
        /// A status in this range.
        case range(Range<Int>)
        /// The transport threw (connection reset, timeout, refused).
        case errorThrown
    }

    /// How many attempts to make.
    enum RetryingPolicy: Hashable, Sendable {
        /// One attempt only.
        case never
        /// Up to this many attempts in all, the first included.
        case upToAttempts(count: Int)

        var attempts: Int {
            switch self {
            case .never: 1
            case .upToAttempts(let count): max(1, count)
            }
        }
    }

    /// How long to wait before the next attempt.
    enum DelayPolicy: Hashable, Sendable {
        /// Retry at once.
        case none
        /// `base`, then twice that, and so on, never more than `maximum`.
        case exponential(base: Duration, maximum: Duration)

        func delay(beforeRetry retry: Int) -> Duration {
            switch self {
            case .none: .zero
            case .exponential(let base, let maximum): min(base * (1 << min(retry - 1, 30)), maximum)
            }
        }

        var maximum: Duration {
            switch self {
            case .none: .zero
            case .exponential(_, let maximum): maximum
            }
        }
    }

    var signals: Set<RetryableSignal> = [.code(429), .code(502), .code(503), .code(504)]
    var policy: RetryingPolicy = .upToAttempts(count: 3)
    var delay: DelayPolicy = .exponential(base: .milliseconds(250), maximum: .seconds(2))
    /// How to wait; tests record the waits instead.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    private static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let repeatable = body.map { $0.iterationBehavior == .multiple } ?? true
        guard Self.idempotentMethods.contains(request.method), repeatable, policy.attempts > 1 else {
            return try await next(request, body, baseURL)
        }
        var attempt = 1
        while true {
            let wait: Duration
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                guard attempt < policy.attempts, matches(response.status.code),
                    let pause = pause(before: attempt, retryAfter: response.headerFields[.retryAfter])
                else {
                    return (response, responseBody)
                }
                wait = pause
            } catch {
                guard attempt < policy.attempts, signals.contains(.errorThrown), !(error is CancellationError) else {
                    throw error
                }
                wait = delay.delay(beforeRetry: attempt)
            }
            if wait > .zero { try await sleep(wait) }
            attempt += 1
        }
    }

    private func matches(_ status: Int) -> Bool {
        signals.contains { signal in
            switch signal {
            case .code(let code): code == status
            case .range(let range): range.contains(status)
            case .errorThrown: false
            }
        }
    }

    /// The wait before retry number `attempt`, or `nil` when the server asked for a longer one than allowed.
    private func pause(before attempt: Int, retryAfter: String?) -> Duration? {
        guard let retryAfter, let seconds = Int(retryAfter.trimmingWhitespace()), seconds >= 0
        else {
            return delay.delay(beforeRetry: attempt)
        }
        let asked = Duration.seconds(seconds)
        return asked <= delay.maximum ? asked : nil
    }
}
