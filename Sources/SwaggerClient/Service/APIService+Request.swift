import FoundationEssentials
import HTTPTypes

/// A response to `swaggerctl api`, whatever its status.
public struct APIResponse: Sendable, Hashable {
    /// The URL it answers.
    public var url: URL
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The headers, in order.
    public var headers: [HeaderField]
    /// The body.
    public var body: Data

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The values of every header named `name`, joined by commas as RFC 9110 §5.3 allows.
    /// - Parameter name: The name, in any case.
    /// - Returns: The values; `nil` when there is no such header.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension APIService {
    /// The largest body `swaggerctl api` reads, for one page. Far more than any API page; a bound on a server
    /// that streams without end.
    public static let responseLimit = 64 << 20

    /// Sends `request` to `url` with the bearer token, through the same middlewares as every other request:
    /// idempotent methods are retried on 429, 502, 503 and 504, and redirects are not followed.
    /// - Parameters:
    ///   - request: What to send.
    ///   - url: Where: the request's own URL, or a later page's.
    ///   - accessToken: The bearer token.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``APIServiceError`` when no response arrives, or a successful one is larger than
    ///   ``responseLimit``.
    public func send(_ request: APIRequest, to url: URL, accessToken: String) async throws(APIServiceError)
        -> APIResponse
    {
        guard let method = HTTPRequest.Method(request.method) else {
            throw report(.contractViolation("\(request.method.prefix(40)) is not an HTTP method"))
        }
        var message = Self.request(method)
        message.headerFields[.accept] = "application/json, */*;q=0.5"
        for header in request.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            message.headerFields[name] = header.value
        }
        let recorder = ResponseRecorder(limit: Self.responseLimit)
        let response = try await exchange(
            message, body: request.body, to: url, operation: .bearer,
            outer: [HeaderMiddleware.bearer(accessToken), RetryingMiddleware()], recorder: recorder,
            secrets: [accessToken])
        return APIResponse(
            url: url, status: response.status.code, reason: response.status.reasonPhrase,
            headers: response.headerFields.map { HeaderField(name: $0.name.rawName, value: $0.value) },
            body: await recorder.body ?? Data())
    }
}
