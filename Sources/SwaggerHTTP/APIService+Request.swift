import FoundationEssentials
import HTTPTypes
import SwaggerModel

extension APIService {
    /// The largest body `swaggerctl api` reads, for one page. Far more than any API page; a bound on a server
    /// that streams without end.
    package static let responseLimit = 64 << 20

    /// The largest request body sent. A larger one is refused whole before anything is read past it: a body
    /// cut short would reach the server as if complete.
    package static let requestBodyLimit = 16 << 20

    /// Sends the person's own request to `url` with the bearer token (none when `accessToken` is `nil`, for a
    /// redirect to another origin), through the same middlewares as every other request: idempotent methods are
    /// retried on 429, 502, 503 and 504. Redirects are returned, for the caller to decide on.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``APIServiceError`` when no response arrives, or a successful one is larger than
    ///   ``responseLimit``.
    package func send(
        method: String, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?, as use: TokenUse
    ) async throws(APIServiceError) -> APIResponse {
        guard let method = HTTPRequest.Method(method) else {
            throw .contractViolation("\(method.prefix(40)) is not an HTTP method")
        }
        var message = Self.request(method)
        message.headerFields[.accept] = "application/json, */*;q=0.5"
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            message.headerFields[name] = header.value
        }
        let recorder = ResponseRecorder(secrets: secretBook)
        let response = try await exchange(
            message, body: body, to: url, operation: .bearer,
            outer: (accessToken.map { [HeaderMiddleware.token($0, as: use)] } ?? []) + [RetryingMiddleware()],
            recorder: recorder, limit: Self.responseLimit, secrets: [accessToken])
        return APIResponse(
            url: url, status: response.status.code, reason: response.status.reasonPhrase,
            headers: response.headerFields.map { HeaderField(name: $0.name.rawName, value: $0.value) },
            body: recorder.body ?? Data())
    }
}
