import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// Bounds one whole request, from connecting to the last byte of the body, by `limit`.
///
/// AsyncHTTPClient's deadline ends when the response head arrives, and its read timeout only limits the
/// silence between two packets, so a server that drips a body one byte a second would never time out. This
/// middleware sits outside the ``ResponseRecorder``, which reads the whole body, and cancels the attempt when
/// the limit passes.
struct DeadlineMiddleware: ClientMiddleware {
    var limit: Duration

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let limit = limit
        // The task group ends only after both children have, so `next` does not outlive this call.
        return try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: Answer?.self) { group in
                group.addTask { Answer(try await next(request, body, baseURL)) }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else { throw APIServiceError.timedOut }
                return (answer.response, answer.body)
            }
        }
    }

    /// A response with its body, as one value for the task group.
    private struct Answer: Sendable {
        var response: HTTPResponse
        var body: HTTPBody?

        init(_ answer: (HTTPResponse, HTTPBody?)) {
            (response, body) = answer
        }
    }
}
