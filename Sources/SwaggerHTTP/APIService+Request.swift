import AsyncHTTPClient
import FoundationEssentials
import HTTPTypes
import NIOCore
import NIOHTTP1
import SwaggerModel
import Synchronization

extension APIService {
    /// The largest body `swaggerctl api` reads, for one page. Far more than any API page; a bound on a server
    /// that streams without end.
    package static let responseLimit = 64 << 20

    /// The largest request body sent. A larger one is refused whole before anything is read past it: a body
    /// cut short would reach the server as if complete.
    package static let requestBodyLimit = 16 << 20

    /// Sends the person's own request to `url` with the token (none when `accessToken` is `nil`, for a redirect
    /// to another origin), as `use` says it goes, and the `User-Agent` that every request has. Idempotent methods
    /// are retried on 429, 502, 503 and 504 as ``RetryingMiddleware`` retries. Redirects are returned, for the
    /// caller to decide on.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``APIServiceError`` when no response arrives, or a successful one is larger than
    ///   ``responseLimit``.
    package func send(
        method: String, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?, as use: TokenUse
    ) async throws(APIServiceError) -> APIResponse {
        try await start(method: method, headers: headers, body: body, to: url, accessToken: accessToken, as: use)
            .response()
    }

    /// ``send(method:headers:body:to:accessToken:as:)``, started now and awaited later: on the command's loop, with
    /// the connection free, the request is written before this returns, and its answer is read as it arrives.
    ///
    /// Every page of `api --paginate` is one of these, so the request goes to AsyncHTTPClient directly: through
    /// the generated client's middlewares, its headers and body were converted to and from HTTPTypes and
    /// OpenAPIRuntime's streamed body at each layer, a third of a page's instructions. Under `--verbose` it goes
    /// through them after all, since the middleware that describes each attempt is one of them, and is sent only
    /// when awaited.
    package func start(
        method: String, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?, as use: TokenUse
    ) -> PendingResponse {
        guard let method = HTTPRequest.Method(method) else {
            return .failed(.contractViolation("\(method.prefix(40)) is not an HTTP method"))
        }
        guard !describes else {
            return PendingResponse {
                () async throws(APIServiceError) -> APIResponse in
                try await sendDescribed(
                    method, headers: headers, body: body, to: url, accessToken: accessToken, as: use)
            }
        }
        guard let origin = lastOrigin.of(url) else {
            return .failed(.contractViolation("\(url.absoluteString.prefix(200)) is not an http or https URL"))
        }
        if let body, body.count > Self.requestBodyLimit {
            return .failed(.requestTooLarge(limit: Self.requestBodyLimit))
        }
        let proxy = proxies.proxy(for: origin)
        secretBook.learn([accessToken, proxy?.password])
        var fields = HTTPHeaders()
        fields.add(name: "Accept", value: Self.accepted)
        // As the middlewares set theirs: the person's headers replace the defaults, and the User-Agent and the
        // token replace the person's.
        for header in headers where HTTPField.Name(header.name) != nil {
            fields.replaceOrAdd(name: header.name, value: header.value)
        }
        fields.replaceOrAdd(name: "User-Agent", value: HeaderMiddleware.userAgent.value)
        if let accessToken {
            let token = HeaderMiddleware.token(accessToken, as: use)
            fields.replaceOrAdd(name: token.name.rawName, value: token.value)
        }
        let transport = transport(through: proxy, limit: Self.responseLimit)
        let request = Result {
            try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: method.rawValue), headers: fields, body: body.map { .bytes($0) })
        }
        // The first attempt starts now; a retry, after the wait the policy gives it, once the answer is awaited.
        let first = try? transport.start(request.get())
        return PendingResponse(
            answer: { () async throws(APIServiceError) -> APIResponse in
                var first = first
                let answer = try await reporting(origin, through: proxy, operation: .bearer, body: { nil }) {
                    try await RetryingMiddleware.attempts(
                        of: method, repeatable: true, sleep: { try await CommandLoop.sleep(for: $0) },
                        status: { (Int($0.head.status.code), $0.head.headers.first(name: "Retry-After")) }
                    ) {
                        if let started = first.take() { return try await transport.collect(started) }
                        return try await transport.collect(request.get())
                    }
                }
                return APIResponse(
                    url: url, status: Int(answer.head.status.code), reason: answer.head.status.reasonPhrase,
                    headers: answer.head.headers.map { HeaderField(name: $0.name, value: $0.value) },
                    body: method == .head ? Data() : answer.body.withUnsafeReadableBytes { Data($0) })
            },
            abandon: { first.map(transport.abandon) })
    }

    /// What `swaggerctl api` accepts: JSON first, anything else after.
    private static let accepted = "application/json, */*;q=0.5"

    /// ``send(method:headers:body:to:accessToken:as:)`` through the generated client's middlewares, the one that
    /// describes each attempt for `--verbose` among them.
    private func sendDescribed(
        _ method: HTTPRequest.Method, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?,
        as use: TokenUse
    ) async throws(APIServiceError) -> APIResponse {
        var message = Self.request(method)
        message.headerFields[.accept] = Self.accepted
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

/// The origin of the last URL a request went to, which every page of `api --paginate` shares: made again for each
/// page, it was the URL's parts read and a URL parsed once more.
final class LastOrigin: Sendable {
    private let last = Mutex<ServerURL?>(nil)

    /// The origin of `url`, as ``ServerURL/init(originOf:)`` makes it.
    func of(_ url: URL) -> ServerURL? {
        if let known = last.withLock({ $0 }), known.isSameOrigin(url) { return known }
        let origin = ServerURL(originOf: url)
        if let origin { last.withLock { $0 = origin } }
        return origin
    }
}
