import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import SwaggerModel
import Synchronization

extension APIService {
    /// The largest body `swaggerctl api` reads, for one page. Far more than any API page; a bound on a server
    /// that streams without end.
    static let responseLimit = 64 << 20

    /// The largest request body sent. A larger one is refused whole before anything is read past it: a body
    /// cut short would reach the server as if complete.
    package static let requestBodyLimit = 16 << 20

    /// Sends the person's own request to `url` with the token (none when `accessToken` is `nil`, for a redirect
    /// to another origin), as `use` says it goes, and the `User-Agent` that every request has. Idempotent methods
    /// are retried as ``RetryPolicy`` says. Redirects are returned, for the caller to decide on.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``APIServiceError`` when no response arrives, or a successful one is larger than
    ///   ``responseLimit``.
    package func send(
        method: String, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?, as use: TokenUse
    ) async throws(APIServiceError) -> APIResponse {
        try await start(method: method, headers: headers, body: body, to: url, accessToken: accessToken, as: use)
            .response()
    }

    /// ``send(method:headers:body:to:accessToken:as:)``, started now and awaited later, as ``start(_:)`` starts
    /// every request.
    package func start(
        method: String, headers: [HeaderField], body: Data?, to url: URL, accessToken: String?, as use: TokenUse
    ) -> PendingResponse {
        guard HeaderField.isToken(method) else {
            return .failed(.contractViolation("\(method.prefix(40)) is not an HTTP method"))
        }
        var fields = HTTPHeaders()
        fields.add(name: "Accept", value: Self.accepted)
        // The person's headers replace the defaults.
        for header in headers where HeaderField.isToken(header.name) {
            fields.replaceOrAdd(name: header.name, value: header.value)
        }
        return start(
            OutgoingRequest(
                HTTPMethod(rawValue: method), url, headers: fields, body: body,
                credential: accessToken.map { Credential(token: $0, use: use) }, retries: true,
                limit: Self.responseLimit))
    }

    /// What `swaggerctl api` accepts: JSON first, anything else after.
    private static let accepted = "application/json, */*;q=0.5"

    /// `User-Agent: swaggerctl/<version>`, on every request.
    static let userAgent = "swaggerctl/\(SwaggerctlVersion.current)"

    /// Sends `request` and reads its answer, as ``start(_:)`` does.
    func send(_ request: OutgoingRequest) async throws(APIServiceError) -> APIResponse {
        try await start(request).response()
    }

    /// Sends `request`, as every request of the service is sent, and reads its answer when it is awaited: the
    /// `User-Agent` and the credential over the request's own headers, ``RetryPolicy``'s retries, each attempt
    /// described under `--verbose`, a login or refresh answer's tokens learned as secrets, and every failure
    /// classified as an ``APIServiceError``.
    ///
    /// Without `--verbose`, on the command's loop with the connection free, the request is written before this
    /// returns, and its answer is read as it arrives: `api --paginate` asks for the next page before it shows this
    /// one, so that the server prepares it meanwhile. Under `--verbose` it is sent when awaited, so that its
    /// description comes after the last answer's.
    ///
    /// Every page is one of these: the headers are NIO's, as AsyncHTTPClient takes them, and the body is bytes, so
    /// nothing is converted on the way. Going through OpenAPIRuntime's middlewares, a page's headers and body were
    /// converted to and from HTTPTypes and a streamed body at each layer, a third of its instructions.
    func start(_ request: consuming OutgoingRequest) -> PendingResponse {
        guard let origin = lastOrigin.of(request.url) else {
            return .failed(.contractViolation("\(request.url.absoluteString.prefix(200)) is not an http or https URL"))
        }
        if let body = request.body, body.count > Self.requestBodyLimit {
            return .failed(.requestTooLarge(limit: Self.requestBodyLimit))
        }
        let proxy = proxies.proxy(for: origin)
        secretBook.learn((request.credential?.secrets ?? []) + [proxy?.password])
        if !request.secrets.isEmpty { secretBook.learn(request.secrets) }
        // The request's own headers replace the defaults it was made with; swaggerctl's User-Agent and the token
        // replace whatever the request says.
        request.headers.replaceOrAdd(name: "User-Agent", value: Self.userAgent)
        if let credential = request.credential {
            request.headers.replaceOrAdd(name: credential.use.header, value: credential.use.value(credential.token))
        }
        let proving = proves(request)
        let wire = wire(request, to: origin, through: proxy)
        let log = log.map { VerboseLog(log: $0, secrets: secretBook, proxy: proxy) }
        // The first attempt starts now; a retry, after the wait the policy gives it, once the answer is awaited.
        let first = log == nil ? exchange(wire) : nil
        let sent = request
        return PendingResponse(
            answer: { () async throws(APIServiceError) -> APIResponse in
                var first = first
                var attempted = false
                let (answer, throttled) = try await reporting(origin, server: sent.server) {
                    var (answer, throttled) = try await RetryPolicy.attempts(
                        of: sent.method, retrying: sent.retries, sleep: { try await CommandLoop.sleep(for: $0) },
                        head: \.head
                    ) {
                        // Every proof is used once: a retry signs a new one.
                        let again = attempted && proving
                        attempted = true
                        return try await attempt(
                            sent, started: first.take(), again ? self.wire(sent, to: origin, through: proxy) : wire,
                            log: log)
                    }
                    // A server that wants its nonce in proofs says so once (RFC 9449 §8, §9): the request is made again
                    // with it, and every later proof to that origin carries it.
                    if proving, nonces.learn(from: answer, for: origin) {
                        answer = try await attempt(
                            sent, started: nil, self.wire(sent, to: origin, through: proxy), log: log)
                        throttled = false
                    }
                    return (answer, throttled)
                }
                return APIResponse(
                    url: sent.url, status: Int(answer.head.status.code), reason: answer.head.status.reasonPhrase,
                    headers: answer.head.headers.map { HeaderField(name: $0.name, value: $0.value) },
                    body: sent.method == .HEAD ? Data() : answer.body.withUnsafeReadableBytes { Data($0) },
                    throttled: throttled, version: Self.statusLineVersion(answer.head.version))
            },
            abandon: { first?.cancel() })
    }

    /// `version` as curl names it in a status line: `HTTP/1.1`, `HTTP/1.0`, and `HTTP/2` rather than NIO's `HTTP/2.0`.
    static func statusLineVersion(_ version: HTTPVersion) -> String {
        // Every page's answer has one: the common versions are constants rather than text made each time.
        switch (version.major, version.minor) {
        case (1, 1): "HTTP/1.1"
        case (1, 0): "HTTP/1.0"
        case (let major, 0) where major >= 2: "HTTP/\(major)"
        case (let major, let minor): "HTTP/\(major).\(minor)"
        }
    }

    /// Whether `request` carries a DPoP proof: with a key, a token request and one that presents a token do.
    private func proves(_ request: OutgoingRequest) -> Bool {
        proofKey != nil && (request.credential != nil || request.yields != nil)
    }

    /// `request` as it goes on the wire, through `proxy`; with a DPoP key, its token presented as DPoP and a fresh
    /// proof beside it.
    private func wire(_ request: OutgoingRequest, to origin: ServerURL, through proxy: ProxySettings.Proxy?)
        -> TransportRequest
    {
        var headers = request.headers
        if let proofKey, proves(request) {
            // A token request carries the proof alone; a request that presents a token, the token's hash too.
            let presented = request.yields == nil ? request.credential : nil
            if let presented, presented.use.header.lowercased() == "authorization" {
                headers.replaceOrAdd(name: "Authorization", value: "DPoP " + presented.token)
            }
            let proof = proofKey.proof(
                method: request.method.rawValue, url: request.url, accessToken: presented?.token,
                nonce: nonces.nonce(for: origin), now: Date())
            headers.replaceOrAdd(name: "DPoP", value: proof)
        }
        return TransportRequest(
            method: request.method, url: request.url, origin: origin, headers: headers, body: request.body,
            limit: request.limit, proxy: proxy, trust: trust,
            resendable: request.retries && RetryPolicy.isIdempotent(request.method))
    }

    /// One attempt at `request`: the exchange `started` with it, or a new one of `wire`. It is described before and
    /// after under `--verbose`, and a login's or refresh's tokens are learned before anything of its answer is shown.
    private func attempt(
        _ request: OutgoingRequest, started: TransportExchange?, _ wire: TransportRequest, log: VerboseLog?
    ) async throws(APIServiceError) -> TransportAnswer {
        let start = log.map { log in
            let target = wire.origin.url.absoluteString + request.url.pathAndQuery
            log.request(request.method, target, headers: request.headers, body: request.body)
            return ContinuousClock.now
        }
        let answer = try await (started ?? exchange(wire)).response()
        if let yields = request.yields, (200..<300).contains(answer.head.status.code) {
            secretBook.learnTokens(
                in: answer.body.withUnsafeReadableBytes { Data($0) }, headers: answer.head.headers, described: yields)
        }
        if let log, let start { log.response(answer, after: ContinuousClock.now - start) }
        return answer
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
