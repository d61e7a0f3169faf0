import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOPosix
import NIOSSL
import SwaggerModel
import Synchronization

/// Talks to the server: posts credentials, refreshes and revokes sessions, fetches the profile, and sends the
/// person's own requests, telling its delegate while it waits.
///
/// Every request goes out by one path, ``start(_:)``, on an AsyncHTTPClient that goes through the proxy the
/// environment names for the server, and trusts the certificate authorities of ``TrustSettings``; its transport
/// bounds each attempt from connecting to the answer's last byte. That path adds the `User-Agent` (and the token
/// where needed), describes each attempt for `--verbose` with every secret hidden, and returns the answer as an
/// ``APIResponse``, from which a failing status is classified; every failure becomes an ``APIServiceError``. The
/// profile and the person's idempotent requests are retried on 429, 502, 503 and 504 with exponential backoff
/// (``RetryPolicy``); nothing else is ever repeated. Redirects are not followed, so a token is never sent to a host
/// it was not issued for.
///
/// Call ``shutdown()`` when done.
package struct APIService: Sendable {
    private let delegate: (any APIServiceDelegate)?
    let timeout: Duration
    let proxies: ProxySettings
    private var trust: TrustSettings
    /// Receives each line of `--verbose`.
    let log: (@Sendable (String) -> Void)?
    private let pool = ClientPool()
    private let deadlines: Deadlines<HTTPClient.Task<ResponseCollector.Answer>>
    let lastOrigin = LastOrigin()
    /// Shared by every request of the command, and by the copies that ``trusting(_:)`` makes.
    let secretBook = SecretBook()
    /// The key that proves the session's requests (DPoP), in the copy that ``proving(with:)`` makes.
    private(set) var proofKey: ProofKey?
    /// The nonce each origin last asked DPoP proofs to carry.
    let nonces = ProofNonces()

    /// A service that makes no connection until its first request.
    /// - Parameters:
    ///   - timeout: The limit on each request, from connecting to the last byte.
    ///   - log: Receives each line that describes a request or response, for `--verbose`; `nil` for none.
    package init(
        timeout: Duration, proxies: ProxySettings = ProxySettings(), trust: TrustSettings = TrustSettings(),
        delegate: (any APIServiceDelegate)? = nil, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.timeout = timeout
        deadlines = Deadlines(timeout: TimeAmount(timeout), on: CommandLoop.group.next()) {
            $0.fail(reason: HTTPClientError.deadlineExceeded)
        }
        self.proxies = proxies
        self.trust = trust
        self.delegate = delegate
        self.log = log
    }

    /// Posts the credentials, as the server's description says.
    /// - Throws: ``APIServiceError``; refused credentials are ``APIServiceError/badCredentials(status:message:)``.
    package func login(_ attempt: LoginAttempt, password: String, client: ClientProof)
        async throws(APIServiceError) -> TokenGrant
    {
        try await DescribedAPI(description: attempt.serverDescription).login(
            attempt, password: password, client: client, through: self)
    }

    /// Asks for tokens for the client itself, with its own proof (RFC 6749 §4.4).
    /// - Throws: ``APIServiceError``; a refused client is ``APIServiceError/badCredentials(status:message:)``.
    package func clientCredentials(_ attempt: LoginAttempt, client: ClientProof) async throws(APIServiceError)
        -> TokenGrant
    {
        try await DescribedAPI(description: attempt.serverDescription).clientCredentials(
            client, server: attempt.server, operation: .login, through: self)
    }

    /// Spends the refresh token for new tokens.
    /// - Throws: ``APIServiceError``; a refused refresh token is ``APIServiceError/refreshRejected``.
    package func refresh(_ request: RefreshRequest) async throws(APIServiceError) -> TokenGrant {
        try await DescribedAPI(description: request.serverDescription).refresh(request, through: self)
    }

    /// Ends the session on its server.
    package func revoke(_ revocation: Revocation) async throws(APIServiceError) {
        try await DescribedAPI(description: revocation.serverDescription).revoke(revocation, through: self)
    }

    /// Fetches the profile with the access token.
    /// - Throws: ``APIServiceError``; 401 is ``APIServiceError/tokenRejected(challenge:)``.
    package func profile(_ request: ProfileRequest) async throws(APIServiceError) -> Profile {
        try await DescribedAPI(description: request.serverDescription).profile(request, through: self)
    }

    /// This service, trusting the authorities in the PEM file `caCertificate` as well, unless it was made to
    /// trust another such file already: for a session that keeps the `--ca-cert` of its login. It shares this
    /// service's connection pools, and so its ``shutdown()``.
    package func trusting(_ caCertificate: String) -> APIService {
        guard trust.additionalCertificates == nil else { return self }
        var service = self
        service.trust.additionalCertificates = caCertificate
        return service
    }

    /// This service, presenting `key`'s certificate in every TLS handshake (RFC 8705's tls_client_auth): a client that
    /// proves itself with it, and whose tokens are bound to it. It shares this service's connection pools, in a
    /// client of its own.
    package func presenting(_ key: ClientKey) -> APIService {
        guard let certificate = key.certificate else { return self }
        var service = self
        service.trust.clientIdentity = TrustSettings.ClientIdentity(
            certificate: certificate, privateKey: key.privateKey)
        return service
    }

    /// This service, proving every token request and every request that presents a token with `key` (DPoP, RFC
    /// 9449): a session whose tokens are bound to it. It shares this service's connection pools.
    package func proving(with key: ProofKey) -> APIService {
        var service = self
        service.proofKey = key
        return service
    }

    /// Closes the connection pools, or leaves them to the process's exit where the command loop runs it. Call
    /// once, after the last request.
    package func shutdown() async {
        await pool.shutdown()
    }

    /// The transport through `proxy`, which reads at most `limit` bytes of an answer's body.
    func transport(through proxy: ProxySettings.Proxy?, limit: Int) -> HTTPClientTransport {
        HTTPClientTransport(
            client: pool.client(through: proxy, timeout: timeout, trust: trust), deadlines: deadlines, limit: limit)
    }

    /// Runs `call` to `origin` between the delegate's waiting on and off, classifying what it throws, and refining
    /// an untrusted certificate into its reason with a second handshake. `server` is the session's, when the
    /// request goes elsewhere on its behalf.
    func reporting<Output: Sendable>(
        _ origin: ServerURL, through proxy: ProxySettings.Proxy?, server: ServerURL?, _ call: () async throws -> Output
    ) async throws(APIServiceError) -> Output {
        delegate?.apiService(self, isWaiting: true)
        // Waiting ends before the outcome is reported, so a spinner is gone before anything is shown.
        defer { delegate?.apiService(self, isWaiting: false) }
        do {
            return try await call()
        } catch {
            // A server may quote what it was sent, the password included, in the words an error line shows.
            var failure = secretBook.scrub(Self.classify(error))
            if let proxy { failure = Self.atProxy(failure, proxy) }
            if case .tls = failure {
                // A trust store that cannot be loaded fails every handshake before it starts; say which one.
                if let store = trust.firstUnloadable() {
                    failure = .tls(.unloadableTrustStore(store))
                } else if case .tls(.untrusted) = failure {
                    failure = .tls(await TLSDiagnosis.reason(for: origin, through: proxy, within: timeout, now: Date()))
                }
            }
            // A failure to reach or trust another host than the session's is that host's, and says so.
            guard let server, ServerURL(originOf: server.url) != origin, Self.isConnectionFailure(failure) else {
                throw failure
            }
            throw .elsewhere(origin, failure)
        }
    }

    /// What `read` makes of an answer that came back, with the command's secrets hidden in whatever of the
    /// answer its error quotes: a token type, a content type, a member that is not a profile.
    func reading<Value>(_ read: () throws(APIServiceError) -> Value) throws(APIServiceError) -> Value {
        do throws(APIServiceError) {
            return try read()
        } catch {
            throw secretBook.scrub(error)
        }
    }

    /// `failure` as it happened through `proxy`: the connection goes to the proxy, so a connection that could
    /// not be made is the proxy's failure, and so is a 407 to a plain `http://` request.
    static func atProxy(_ failure: APIServiceError, _ proxy: ProxySettings.Proxy) -> APIServiceError {
        switch failure {
        case .unreachable(let detail): .proxyFailed(proxy: proxy.description, .unreachable(detail))
        case .requestRejected(status: 407, _): .proxyFailed(proxy: proxy.description, .authenticationRequired)
        case .proxyFailed(_, let reason): .proxyFailed(proxy: proxy.description, reason)
        default: failure
        }
    }

    /// Whether `failure` is about the connection (reaching the host, or trusting it) rather than an answer.
    static func isConnectionFailure(_ failure: APIServiceError) -> Bool {
        switch failure {
        case .unreachable, .timedOut, .tls, .proxyFailed: true
        default: false
        }
    }
}

/// The HTTP clients of one service: one for each way out (directly or through one proxy) and set of trusted
/// authorities, on the ``CommandLoop``.
///
/// The loop is never shut down. A connection that closes after its client's shutdown has returned (NIO
/// finishes closing on the event loop, after a cancelled or timed-out request) still schedules its last
/// tasks there; on a loop that was shut down meanwhile, NIO prints "Cannot schedule tasks on an EventLoop
/// that has already shut down", which a later NIO turns into a crash. The loop runs until the process exits.
final class ClientPool: Sendable {
    /// One client for each way out and each set of trusted authorities.
    private struct Route: Hashable {
        var proxy: ProxySettings.Proxy?
        var trust: TrustSettings
    }

    private let clients = Mutex<[Route: HTTPClient]>([:])

    func client(through proxy: ProxySettings.Proxy?, timeout: Duration, trust: TrustSettings) -> HTTPClient {
        clients.withLock { clients in
            let route = Route(proxy: proxy, trust: trust)
            if let client = clients[route] { return client }
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            // Each command makes a request or two: HTTP/2's multiplexing has nothing to share, and its ALPN
            // negotiation and connection set-up cost start-up time.
            configuration.httpVersion = .http1Only
            configuration.decompression = .disabled
            // No tracer is ever bootstrapped: without this, each request would ask the configuration for one, by a
            // dynamic cast.
            configuration.tracing.tracer = nil
            // No read timeout: each request's deadline (``Deadlines``) bounds the whole exchange by the same
            // length, so an idle read could never outlast it, and the timer was set and cancelled at every request.
            configuration.timeout = .init(connect: TimeAmount(min(timeout, .seconds(5))), read: nil)
            // A refused connection is retried with backoff until the connect timeout by default, so a server
            // that is down took five seconds to report. One command makes one request; like curl, it fails at
            // once.
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.tlsConfiguration = trust.tlsConfiguration
            configuration.proxy = proxy.map { proxy in
                .server(
                    host: proxy.host, port: proxy.port,
                    authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
            }
            let client = HTTPClient(eventLoopGroupProvider: .shared(CommandLoop.group), configuration: configuration)
            clients[route] = client
            return client
        }
    }

    /// Closes every client's connections. A command's process closes them as it exits, right after: a client's
    /// own shutdown reports back through a Dispatch queue, whose first use starts two threads, a millisecond of
    /// a command that takes a dozen. Its clients are kept until then, since a client that is freed before it
    /// was shut down stops a debug build.
    func shutdown() async {
        let open = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        guard !CommandLoop.endsWithProcess else {
            CommandLoop.keepUntilExit(open)
            return
        }
        for client in open { try? await client.shutdown() }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
