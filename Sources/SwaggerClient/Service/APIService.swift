import AsyncHTTPClient
import FoundationEssentials
import HTTPTypes
import NIOCore
import NIOPosix
import NIOSSL
import OpenAPIRuntime
import SwaggerAPI

/// Talks to the account API: posts credentials, refreshes and revokes sessions, and fetches the profile,
/// reporting to its delegate.
///
/// Each call runs on an AsyncHTTPClient that goes through the proxy the environment names for the server,
/// and trusts the certificate authorities of ``TrustSettings``. Middlewares add the `User-Agent` (and the
/// bearer token where needed), bound each attempt from connecting to its last byte, describe the exchange
/// for `--verbose` with every secret hidden, and keep the response for classification; every failure
/// becomes an ``APIServiceError``. The profile request is retried on 429, 502, 503 and 504 with exponential
/// backoff; nothing else is ever repeated. Redirects are not followed, so a token is never sent to a host it
/// was not issued for.
///
/// The delegate hears `isWaiting` on and off around each request, then the outcome: a profile or an error.
///
/// Call ``shutdown()`` when done; ``SessionController/withController(configuration:delegate:warn:log:_:)`` does it.
public actor APIService {
    /// The result of a successful login or refresh.
    public struct Login: Sendable, Hashable {
        /// The tokens.
        public var credentials: Credentials
        /// The user name the server returned, if any.
        public var username: String?
        /// The access token's lifetime, when the server said (`expiresIn`, `expires_in`): what an opaque token's
        /// expiry is known by.
        public var expiresIn: Duration?

        /// Creates a login result.
        /// - Parameters:
        ///   - credentials: The tokens.
        ///   - username: The user name the server returned.
        ///   - expiresIn: The access token's lifetime, when the server said.
        public init(credentials: Credentials, username: String? = nil, expiresIn: Duration? = nil) {
            self.credentials = credentials
            self.username = username
            self.expiresIn = expiresIn
        }
    }

    weak var delegate: (any APIServiceDelegate)?
    private let timeout: Duration
    private let proxies: ProxySettings
    private let trust: TrustSettings
    private let log: (@Sendable (String) -> Void)?
    /// One client for each way out: directly, or through one proxy.
    private var clients: [ProxySettings.Proxy?: HTTPClient] = [:]
    /// One event-loop thread, started by the first request: a command makes one request at a time, and one
    /// that makes none starts no thread. NIO's shared group would start one for each core.
    private var group: MultiThreadedEventLoopGroup?

    /// Creates a service. No connection is made until the first request.
    /// - Parameters:
    ///   - timeout: The limit on each request, from connecting to the last byte.
    ///   - proxies: The proxies to go through.
    ///   - trust: The certificate authorities to trust.
    ///   - delegate: Receives progress reports; held weakly.
    ///   - log: Receives each line that describes a request or response, for `--verbose`; `nil` for none.
    public init(
        timeout: Duration, proxies: ProxySettings = ProxySettings(), trust: TrustSettings = TrustSettings(),
        delegate: (any APIServiceDelegate)? = nil, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.timeout = timeout
        self.proxies = proxies
        self.trust = trust
        self.delegate = delegate
        self.log = log
    }

    /// Posts the credentials to `POST /User/AdminLogin`.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account's e-mail.
    ///   - password: The account's password.
    ///   - appID: The calling application's id.
    /// - Returns: The tokens and user name.
    /// - Throws: ``APIServiceError``; 401 and 403 are ``APIServiceError/badCredentials(status:message:)``.
    public func login(server: ServerURL, email: String, password: String, appID: String)
        async throws(APIServiceError) -> Login
    {
        let recorder = ResponseRecorder()
        let output = try await perform(server: server, operation: .login, recorder: recorder, secrets: [password]) {
            client in
            try await client.adminLogin(body: .json(.init(email: email, password: password, appId: appID)))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let body) = ok.body else {
                throw report(.contractViolation("the login response is not JSON"))
            }
            return try tokens(body, of: "login")
        case .badRequest, .unauthorized, .forbidden, .contentTooLarge, .undocumented:
            throw report(await recorder.failure(.login))
        }
    }

    /// Spends the refresh token at `POST /User/RefreshToken` for new tokens.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - refreshToken: The refresh token to spend.
    ///   - appID: The app id that the login sent.
    /// - Returns: The new tokens; the refresh token is new too when the server rotates it.
    /// - Throws: ``APIServiceError``; 401 is ``APIServiceError/refreshRejected``.
    public func refresh(server: ServerURL, refreshToken: String, appID: String) async throws(APIServiceError) -> Login {
        let recorder = ResponseRecorder()
        let output = try await perform(
            server: server, operation: .refresh, recorder: recorder, secrets: [refreshToken]
        ) { client in
            try await client.refreshToken(body: .json(.init(refreshToken: refreshToken, appId: appID)))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let body) = ok.body else {
                throw report(.contractViolation("the refresh response is not JSON"))
            }
            return try tokens(body, of: "refresh")
        case .badRequest, .unauthorized, .forbidden, .contentTooLarge, .undocumented:
            throw report(await recorder.failure(.refresh))
        }
    }

    /// Ends the session on the server with `POST /User/Logout`: the refresh token and every access token
    /// issued from the same login stop working.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - credentials: The session's tokens: the access token authorises the call, and the refresh token
    ///     names the session.
    /// - Throws: ``APIServiceError``.
    public func logout(server: ServerURL, credentials: Credentials) async throws(APIServiceError) {
        let recorder = ResponseRecorder()
        let output = try await perform(
            server: server, operation: .bearer, outer: [HeaderMiddleware.bearer(credentials.accessToken)],
            recorder: recorder, secrets: [credentials.accessToken, credentials.refreshToken]
        ) { client in
            try await client.logout(body: .json(.init(refreshToken: credentials.refreshToken ?? "")))
        }
        switch output {
        case .noContent:
            return
        case .badRequest, .unauthorized, .contentTooLarge, .undocumented:
            throw report(await recorder.failure(.bearer))
        }
    }

    /// Fetches the profile from `GET /User/User` with a bearer token.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - accessToken: The bearer token.
    /// - Returns: The profile exactly as received.
    /// - Throws: ``APIServiceError``; 401 is ``APIServiceError/tokenRejected``.
    public func fetchProfile(server: ServerURL, accessToken: String) async throws(APIServiceError) -> Profile {
        let recorder = ResponseRecorder()
        // The recorder sits inside the retries, so it keeps the body of the attempt that counts: the last.
        let output = try await perform(
            server: server, operation: .profile, outer: [HeaderMiddleware.bearer(accessToken), RetryingMiddleware()],
            recorder: recorder, secrets: [accessToken]
        ) { client in
            try await client.getUser()
        }
        switch output {
        case .ok:
            // The generated client has already checked the body against the User schema.
            let profile: Profile
            do throws(APIServiceError) {
                profile = try Profile(answer: await recorder.body ?? Data(), contentType: nil)
            } catch {
                throw report(error)
            }
            delegate?.apiService(self, didReceive: profile)
            return profile
        case .unauthorized, .undocumented:
            throw report(await recorder.failure(.bearer))
        }
    }

    /// Closes the connection pools. Call once, after the last request.
    public func shutdown() async {
        let open = clients.values
        clients = [:]
        for client in open { try? await client.shutdown() }
        if let group {
            self.group = nil
            try? await group.shutdownGracefully()
        }
    }

    /// Sends one operation through `outer` (the bearer token, the retries), then the deadline, the verbose log
    /// and the `recorder`, innermost last, and classifies what goes wrong.
    private func perform<Output: Sendable>(
        server: ServerURL, operation: Operation, outer: [any ClientMiddleware] = [], recorder: ResponseRecorder,
        secrets: [String?], _ call: @Sendable (SwaggerAPI.Client) async throws -> Output
    ) async throws(APIServiceError) -> Output {
        let proxy = proxies.proxy(for: server)
        let client = SwaggerAPI.Client(
            serverURL: server.url, transport: transport(through: proxy),
            middlewares: middlewares(outer: outer, recorder: recorder, secrets: secrets, proxy: proxy))
        return try await reporting(server, through: proxy, operation: operation, recorder: recorder) {
            try await call(client)
        }
    }

    /// Sends a request that the generated client does not describe (another kind of server's login, a
    /// discovery document, `swaggerctl api`) through the same middlewares as ``perform(server:operation:outer:recorder:secrets:_:)``.
    /// - Returns: The response; its body is in `recorder`.
    func exchange(
        _ request: HTTPRequest, body: Data?, to url: URL, operation: Operation, outer: [any ClientMiddleware] = [],
        recorder: ResponseRecorder, secrets: [String?]
    ) async throws(APIServiceError) -> HTTPResponse {
        guard let origin = ServerURL.origin(of: url), let server = try? ServerURL(origin.absoluteString) else {
            throw report(.contractViolation("\(url.absoluteString.prefix(200)) is not an http or https URL"))
        }
        let proxy = proxies.proxy(for: server)
        let transport = transport(through: proxy)
        let chain = middlewares(outer: outer, recorder: recorder, secrets: secrets, proxy: proxy)
        var request = request
        request.path = url.pathAndQuery
        let sent = request
        return try await reporting(server, through: proxy, operation: operation, recorder: recorder) {
            var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
                try await transport.send($0, body: $1, baseURL: $2, operationID: "raw")
            }
            for middleware in chain.reversed() {
                let inner = next
                next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: "raw", next: inner) }
            }
            return try await next(sent, body.map { HTTPBody($0) }, origin).0
        }
    }

    /// `User-Agent`, then `outer`, the deadline, the verbose log and the `recorder`, outermost first.
    private func middlewares(
        outer: [any ClientMiddleware], recorder: ResponseRecorder, secrets: [String?], proxy: ProxySettings.Proxy?
    ) -> [any ClientMiddleware] {
        var middlewares: [any ClientMiddleware] = [HeaderMiddleware.userAgent] + outer
        middlewares.append(DeadlineMiddleware(limit: timeout))
        if let log {
            let redactor = Redactor(secrets: secrets + [proxy?.password])
            middlewares.append(VerboseLogMiddleware(log: log, redactor: redactor, proxy: proxy))
        }
        middlewares.append(recorder)
        return middlewares
    }

    private func transport(through proxy: ProxySettings.Proxy?) -> HTTPClientTransport {
        HTTPClientTransport(client: httpClient(through: proxy), timeout: TimeAmount(timeout))
    }

    /// Runs `call` between the delegate's waiting on and off, classifying what it throws, and refining an
    /// untrusted certificate into its reason with a second handshake.
    private func reporting<Output: Sendable>(
        _ server: ServerURL, through proxy: ProxySettings.Proxy?, operation: Operation, recorder: ResponseRecorder,
        _ call: () async throws -> Output
    ) async throws(APIServiceError) -> Output {
        delegate?.apiService(self, isWaiting: true)
        var outcome: Result<Output, APIServiceError>
        do {
            outcome = .success(try await call())
        } catch {
            outcome = .failure(Self.classify(error, operation: operation, body: await recorder.body))
        }
        if case .failure(.tls(.untrusted)) = outcome {
            let reason = await TLSDiagnosis.reason(for: server, through: proxy, within: timeout, now: Date())
            outcome = .failure(.tls(reason))
        }
        // Waiting ends before the outcome is reported, so a spinner is gone before anything is shown.
        delegate?.apiService(self, isWaiting: false)
        switch outcome {
        case .success(let output): return output
        case .failure(let error): throw report(error)
        }
    }

    private func httpClient(through proxy: ProxySettings.Proxy?) -> HTTPClient {
        if let client = clients[proxy] { return client }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // Each command makes a request or two: HTTP/2's multiplexing has nothing to share, and its ALPN
        // negotiation and connection set-up cost start-up time.
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: TimeAmount(min(timeout, .seconds(5))), read: TimeAmount(timeout))
        // A refused connection is retried with backoff until the connect timeout by default, so a server that
        // is down took five seconds to report. One command makes one request; like curl, it fails at once.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tlsConfiguration = trust.tlsConfiguration
        configuration.proxy = proxy.map { proxy in
            .server(
                host: proxy.host, port: proxy.port,
                authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
        }
        let group = self.group ?? MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        clients[proxy] = client
        return client
    }

    /// The tokens of a login or refresh answer, which must carry an access token that can be a token.
    private func tokens(_ body: Components.Schemas.LoginResponse, of operation: String) throws(APIServiceError)
        -> Login
    {
        guard !body.accessToken.isEmpty else {
            throw report(.contractViolation("the \(operation) response has no access token"))
        }
        let refresh = body.refreshToken.flatMap { $0.isEmpty ? nil : $0 }
        guard Credentials.isToken(body.accessToken), refresh.map(Credentials.isToken) ?? true else {
            throw report(.contractViolation("the \(operation) response's token has characters that no token has"))
        }
        return Login(
            credentials: Credentials(accessToken: body.accessToken, refreshToken: refresh), username: body.username)
    }

    func report(_ error: APIServiceError) -> APIServiceError {
        delegate?.apiService(self, didFailWith: error)
        return error
    }
}

extension TrustSettings {
    /// The client TLS configuration: full verification, always, against the chosen store.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        var directories = certificateDirectories
        if let certificateFile {
            configuration.trustRoots = .file(certificateFile)
        } else if let first = directories.first {
            configuration.trustRoots = .file(first)
            directories.removeFirst()
        }
        configuration.additionalTrustRoots =
            directories.map { .file($0) } + (additionalCertificates.map { [.file($0)] } ?? [])
        return configuration
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
