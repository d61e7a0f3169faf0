import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SwaggerAPI

/// Talks to the account API: posts credentials and fetches the profile, reporting to its delegate.
///
/// Each call runs on a shared AsyncHTTPClient with a per-request deadline, adds the `User-Agent` (and the
/// bearer token where needed) through middlewares, and turns every failure into an ``APIServiceError``.
/// The profile request is retried on 429, 502, 503 and 504 with exponential backoff; the login is never
/// repeated. Redirects are not followed, so a token is never sent to a host it was not issued for.
///
/// The delegate hears `isWaiting` on and off around each request, then the outcome: a profile or an error.
///
/// Call ``shutdown()`` when done; ``SessionController/withController(configuration:delegate:warn:_:)`` does it.
public actor APIService {
    /// The result of a successful login.
    public struct Login: Sendable, Hashable {
        /// The tokens.
        public var credentials: Credentials
        /// The user name the server returned, if any.
        public var username: String?
    }

    private weak var delegate: (any APIServiceDelegate)?
    private let timeout: Duration
    private var httpClient: HTTPClient?

    /// Creates a service. No connection is made until the first request.
    /// - Parameters:
    ///   - timeout: The limit on each request, from connecting to the last byte.
    ///   - delegate: Receives progress reports; held weakly.
    public init(timeout: Duration, delegate: (any APIServiceDelegate)? = nil) {
        self.timeout = timeout
        self.delegate = delegate
    }

    /// Posts the credentials to `POST /User/AdminLogin`.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account's e-mail.
    ///   - password: The account's password.
    ///   - appID: The calling application's id.
    /// - Returns: The tokens and user name.
    /// - Throws: ``APIServiceError``; 401 and 403 are ``APIServiceError/badCredentials``.
    public func login(server: ServerURL, email: String, password: String, appID: String)
        async throws(APIServiceError) -> Login
    {
        let recorder = ResponseRecorder()
        let output = try await perform(server: server, operation: .login, middlewares: [recorder]) { client in
            try await client.adminLogin(body: .json(.init(email: email, password: password, appId: appID)))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let body) = ok.body else {
                throw report(.contractViolation("the login response is not JSON"))
            }
            return try tokens(body, of: "login")
        case .unauthorized, .forbidden:
            throw report(.badCredentials)
        case .badRequest, .contentTooLarge, .undocumented:
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
        let output = try await perform(server: server, operation: .refresh, middlewares: [recorder]) { client in
            try await client.refreshToken(body: .json(.init(refreshToken: refreshToken, appId: appID)))
        }
        switch output {
        case .ok(let ok):
            guard case .json(let body) = ok.body else {
                throw report(.contractViolation("the refresh response is not JSON"))
            }
            return try tokens(body, of: "refresh")
        case .unauthorized:
            throw report(.refreshRejected)
        case .badRequest, .forbidden, .contentTooLarge, .undocumented:
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
        let middlewares: [any ClientMiddleware] = [HeaderMiddleware.bearer(credentials.accessToken), recorder]
        let output = try await perform(server: server, operation: .bearer, middlewares: middlewares) { client in
            try await client.logout(body: .json(.init(refreshToken: credentials.refreshToken ?? "")))
        }
        switch output {
        case .noContent:
            return
        case .unauthorized:
            throw report(.tokenRejected)
        case .badRequest, .contentTooLarge, .undocumented:
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
        let middlewares: [any ClientMiddleware] = [
            HeaderMiddleware.bearer(accessToken), RetryingMiddleware(), recorder,
        ]
        let output = try await perform(server: server, operation: .bearer, middlewares: middlewares) { client in
            try await client.getUser()
        }
        switch output {
        case .ok:
            // The generated client has already checked the body against the User schema.
            guard let data = await recorder.body, let profile = try? Profile(json: data) else {
                throw report(.contractViolation("the profile is not a JSON object"))
            }
            delegate?.apiService(self, didReceive: profile)
            return profile
        case .unauthorized:
            throw report(.tokenRejected)
        case .undocumented:
            throw report(await recorder.failure(.bearer))
        }
    }

    /// Closes the connection pool. Call once, after the last request.
    public func shutdown() async {
        guard let httpClient else { return }
        self.httpClient = nil
        try? await httpClient.shutdown()
    }

    private func perform<Output: Sendable>(
        server: ServerURL, operation: Operation, middlewares: [any ClientMiddleware],
        _ call: @Sendable (SwaggerAPI.Client) async throws -> Output
    ) async throws(APIServiceError) -> Output {
        let client = SwaggerAPI.Client(
            serverURL: server.url,
            transport: AsyncHTTPClientTransport(
                configuration: .init(client: sharedHTTPClient(), timeout: TimeAmount(timeout))),
            middlewares: [HeaderMiddleware.userAgent] + middlewares)
        delegate?.apiService(self, isWaiting: true)
        let outcome: Result<Output, APIServiceError>
        do {
            outcome = .success(try await call(client))
        } catch {
            outcome = .failure(Self.classify(error, operation: operation))
        }
        // Waiting ends before the outcome is reported, so a spinner is gone before anything is shown.
        delegate?.apiService(self, isWaiting: false)
        switch outcome {
        case .success(let output): return output
        case .failure(let error): throw report(error)
        }
    }

    private func sharedHTTPClient() -> HTTPClient {
        if let httpClient { return httpClient }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: TimeAmount(min(timeout, .seconds(5))), read: TimeAmount(timeout))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        httpClient = client
        return client
    }

    /// The tokens of a login or refresh answer, which must carry an access token.
    private func tokens(_ body: Components.Schemas.LoginResponse, of operation: String) throws(APIServiceError)
        -> Login
    {
        guard !body.accessToken.isEmpty else {
            throw report(.contractViolation("the \(operation) response has no access token"))
        }
        let refresh = body.refreshToken.flatMap { $0.isEmpty ? nil : $0 }
        return Login(
            credentials: Credentials(accessToken: body.accessToken, refreshToken: refresh), username: body.username)
    }

    private func report(_ error: APIServiceError) -> APIServiceError {
        delegate?.apiService(self, didFailWith: error)
        return error
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
