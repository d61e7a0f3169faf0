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
/// Every request goes out by one path, ``start(_:)``, to one ``HTTPTransport``: AsyncHTTPClient in a command,
/// through the proxy the environment names for the server and trusting the certificate authorities of
/// ``TrustSettings``, bounding each attempt from connecting to the answer's last byte; a test's recorded answers in a
/// test. That path adds the `User-Agent` (and the token and its proof where needed), describes each attempt for
/// `--verbose` with every secret hidden, and returns the answer as an ``APIResponse``, from which a failing status
/// is classified; every failure becomes an ``APIServiceError``. The profile and the person's idempotent requests are
/// retried on 429, 502, 503 and 504 with exponential backoff (``RetryPolicy``); nothing else is ever repeated.
/// Redirects are not followed, so a token is never sent to a host it was not issued for.
///
/// Call ``shutdown()`` when done.
package struct APIService: Sendable {
    private let delegate: (any APIServiceDelegate)?
    private let transport: any HTTPTransport
    let proxies: ProxySettings
    private(set) var trust: TrustSettings
    /// Receives each line of `--verbose`.
    let log: (@Sendable (String) -> Void)?
    let lastOrigin = LastOrigin()
    /// Shared by every request of the command, and by the copies that ``trusting(_:)`` makes.
    let secretBook = SecretBook()
    /// The key that proves the session's requests (DPoP), in the copy that ``proving(with:)`` makes.
    private(set) var proofKey: ProofKey?
    /// The nonce each origin last asked DPoP proofs to carry.
    let nonces = ProofNonces()
    /// The DPoP keys of the sessions this command used, read from their PEM once: the check of a session's key and
    /// each of its requests share one.
    private let proofKeys = ProofKeys()

    /// A service that makes no connection until its first request.
    /// - Parameters:
    ///   - timeout: The limit on each request, from connecting to the last byte.
    ///   - transport: What carries the requests: AsyncHTTPClient unless a test gives another.
    ///   - log: Receives each line that describes a request or response, for `--verbose`; `nil` for none.
    package init(
        timeout: Duration, proxies: ProxySettings = ProxySettings(), trust: TrustSettings = TrustSettings(),
        transport: (any HTTPTransport)? = nil, delegate: (any APIServiceDelegate)? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.transport = transport ?? AsyncHTTPTransport(timeout: timeout)
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
        try await DescribedAPI(description: request.serverDescription).refresh(
            request, through: bound(to: request.binding))
    }

    /// Ends the session on its server.
    package func revoke(_ revocation: Revocation) async throws(APIServiceError) {
        try await DescribedAPI(description: revocation.serverDescription).revoke(
            revocation, through: bound(to: revocation.binding))
    }

    /// Fetches the profile with the access token.
    /// - Throws: ``APIServiceError``; 401 is ``APIServiceError/tokenRejected(challenge:)``.
    package func profile(_ request: ProfileRequest) async throws(APIServiceError) -> Profile {
        try await DescribedAPI(description: request.serverDescription).profile(
            request, through: bound(to: request.binding))
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

    /// This service, proving and presenting what a session's tokens are bound to. A key that is not one was refused
    /// when it was read (``holdsKey(_:of:)``).
    package func bound(to binding: SessionBinding) -> APIService {
        var service = self
        if let certificate = binding.certificate { service = service.presenting(certificate) }
        if let key = binding.proofKey.flatMap(proofKeys.key) { service = service.proving(with: key) }
        return service
    }

    /// Whether `credentials` hold the DPoP key whose thumbprint `record` keeps: a token bound to a key is of no use
    /// without that key, and one the store lacks, or holds another of, cannot prove it. Any credentials do for a
    /// record that names no key.
    package func holdsKey(_ credentials: Credentials, of record: SessionRecord) -> Bool {
        guard let thumbprint = record.proofKey else { return true }
        return credentials.proofKey.flatMap(proofKeys.key)?.thumbprint == thumbprint
    }

    /// Closes the transport's connections, or leaves them to the process's exit where the command loop runs it.
    /// Call once, after the last request.
    package func shutdown() async {
        await transport.shutdown()
    }

    /// The exchange `request` starts on the transport.
    func exchange(_ request: TransportRequest) -> TransportExchange {
        transport.start(request)
    }

    /// Runs `call` to `origin` between the delegate's waiting on and off, with the command's secrets hidden in what
    /// it throws. `server` is the session's, when the request goes elsewhere on its behalf.
    func reporting<Output: Sendable>(
        _ origin: ServerURL, server: ServerURL?, _ call: () async throws -> Output
    ) async throws(APIServiceError) -> Output {
        delegate?.apiService(self, isWaiting: true)
        // Waiting ends before the outcome is reported, so a spinner is gone before anything is shown.
        defer { delegate?.apiService(self, isWaiting: false) }
        do {
            return try await call()
        } catch {
            // The transport names its failures; what else can throw is the wait between retries, cancelled.
            let thrown = error as? APIServiceError ?? .unreachable("the request was cancelled")
            // A server may quote what it was sent, the password included, in the words an error line shows.
            let failure = secretBook.scrub(thrown)
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

    /// Whether `failure` is about the connection (reaching the host, or trusting it) rather than an answer.
    static func isConnectionFailure(_ failure: APIServiceError) -> Bool {
        switch failure {
        case .unreachable, .timedOut, .tls, .proxyFailed: true
        default: false
        }
    }
}
