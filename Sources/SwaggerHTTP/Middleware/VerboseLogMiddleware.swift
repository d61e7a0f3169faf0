import FoundationEssentials
import HTTPTypes
import NIOHTTP1
import OpenAPIRuntime
import SwaggerModel

/// Describes each request and response for `--verbose` (and `SWAGGERCTL_DEBUG=1`), as `curl -v` does: method,
/// URL and proxy, status and time, headers, and bodies cut to ``bodyLimit`` bytes. Every secret is shown as
/// `[redacted]` by the ``Redactor``, and each line is sanitised where it is printed.
///
/// It sits inside the retries, so every attempt is described, and outside the ``ResponseRecorder``, so it
/// sees the whole body of the attempt, already read.
struct VerboseLogMiddleware: ClientMiddleware {
    /// How much of a body is shown.
    static let bodyLimit = 400

    var log: @Sendable (String) -> Void
    /// The command's secrets. The ``ResponseRecorder`` inside adds a login or refresh answer's tokens before
    /// this shows anything of the answer.
    var secrets: SecretBook
    var proxy: ProxySettings.Proxy?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let redactor = secrets.redactor
        let target = baseURL.absoluteString + (request.path ?? "")
        log(
            "> \(request.method.rawValue) \(redactor.scrub(target))"
                + (proxy.map { " (through the proxy \($0))" } ?? ""))
        for field in request.headerFields { log("> \(field.name): \(redactor.header(field))") }
        var sent: Data?
        if let body { sent = try await Data(whole: body, atMost: APIService.requestBodyLimit) }
        if let sent, !sent.isEmpty {
            log("> " + redactor.body(sent, contentType: request.headerFields[.contentType], limit: Self.bodyLimit))
        }

        let start = ContinuousClock.now
        let (response, responseBody) = try await next(request, sent.map { HTTPBody($0) } ?? body, baseURL)
        let elapsed = (ContinuousClock.now - start).timeInterval * 1000
        // The transport keeps the code only; the reason phrase comes from the code's standard one.
        let phrase = HTTPResponseStatus(statusCode: response.status.code).reasonPhrase
        log("< HTTP \(response.status.code)\(phrase.isEmpty ? "" : " " + phrase) (\(Int(elapsed.rounded())) ms)")
        var received: Data?
        // The recorder inside has read it already, to its own limit, which may be larger than a request's.
        if let responseBody { received = try await Data(whole: responseBody, atMost: .max) }
        let answerRedactor = secrets.redactor
        for field in response.headerFields { log("< \(field.name): \(answerRedactor.header(field))") }
        guard let received else { return (response, nil) }
        if !received.isEmpty {
            log(
                "< "
                    + answerRedactor.body(
                        received, contentType: response.headerFields[.contentType], limit: Self.bodyLimit))
        }
        return (response, HTTPBody(received))
    }
}

extension Data {
    /// All of `body`, which must be no larger than `limit`: a body is sent whole or not at all.
    /// - Throws: ``APIServiceError/requestTooLarge(limit:)`` past the limit.
    init(whole body: HTTPBody, atMost limit: Int) async throws {
        self.init()
        for try await chunk in body {
            guard chunk.count <= limit - count else { throw APIServiceError.requestTooLarge(limit: limit) }
            append(contentsOf: chunk)
        }
    }
}
