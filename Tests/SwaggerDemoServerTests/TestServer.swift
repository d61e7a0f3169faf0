import DemoServer
import Foundation
import Hummingbird
import HummingbirdTesting
import SwaggerAPI

/// A demo server router over a fresh account directory, driven in-process through Hummingbird's `.router` mode.
///
/// Every instance has its own token signing key, as a freshly started server does.
struct TestServer {
    /// The bcrypt cost for test directories: the lowest allowed, for speed.
    static let bcryptCost: UInt8 = 4

    let router: Router<DemoRequestContext>
    let options: DemoServer.Options

    /// Builds a router over `seeds` (the demo account is added unless a seed takes its e-mail), with its state
    /// in `database`: a fresh in-memory one unless a test passes a file's.
    static func make(
        seeds: [AccountDirectory.Seed] = [], options: DemoServer.Options = .forTests,
        database: DemoDatabase? = nil
    ) async throws -> TestServer {
        let database = try database ?? DemoDatabase.open(path: nil)
        let directory = try await AccountDirectory.make(seeds: seeds, cost: bcryptCost, database: database)
        return TestServer(
            router: try await DemoServer.router(directory: directory, database: database, options: options),
            options: options)
    }

    /// Runs `test` against this router: in-process, or with `.live` over a loopback connection.
    func run<Value: Sendable>(
        _ mode: TestingSetup = .router, _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await Application(router: router).test(mode, test)
    }
}

extension DemoServer.Options {
    /// The server's defaults, on a clock that stands still until the test moves it.
    static var forTests: Self {
        var options = Self()
        options.clock = DemoClock(stoppedAt: Date())
        return options
    }
}

extension TestClientProtocol {
    /// `POST /api/User/AdminLogin` with a well-formed JSON body.
    func login(
        email: String = AccountDirectory.demoEmail, password: String = AccountDirectory.demoPassword,
        appId: String = "swaggerctl-demo"
    ) async throws -> TestResponse {
        let request = Components.Schemas.LoginRequest(email: email, password: password, appId: appId)
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        return try await postLogin(body: json)
    }

    /// `POST /api/User/AdminLogin` with `body` sent as is.
    func postLogin(body: String, contentType: String = "application/json") async throws -> TestResponse {
        try await execute(
            uri: "/api/User/AdminLogin", method: .post, headers: [.contentType: contentType],
            body: ByteBuffer(string: body))
    }

    /// Signs in and returns the access token, failing the test unless the login answers 200.
    func accessToken(
        email: String = AccountDirectory.demoEmail, password: String = AccountDirectory.demoPassword
    ) async throws -> String {
        try await tokens(email: email, password: password).accessToken
    }

    /// Signs in and returns both tokens, failing the test unless the login answers 200 with a refresh token.
    func tokens(
        email: String = AccountDirectory.demoEmail, password: String = AccountDirectory.demoPassword
    ) async throws -> (accessToken: String, refreshToken: String) {
        let response = try await login(email: email, password: password)
        return try response.tokens("login as \(email)")
    }

    /// `POST /api/User/RefreshToken` with `refreshToken`.
    func refresh(_ refreshToken: String, appId: String = "swaggerctl-demo") async throws -> TestResponse {
        let body = try JSONEncoder().encode(Components.Schemas.RefreshRequest(refreshToken: refreshToken, appId: appId))
        return try await execute(
            uri: "/api/User/RefreshToken", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: body))
    }

    /// `POST /api/User/Logout` with `Authorization: Bearer accessToken`, when given, and `refreshToken`.
    func logout(accessToken: String?, refreshToken: String) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let accessToken { headers[.authorization] = "Bearer \(accessToken)" }
        let body = try JSONEncoder().encode(Components.Schemas.LogoutRequest(refreshToken: refreshToken))
        return try await execute(
            uri: "/api/User/Logout", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// `GET /api/User/User`, with `authorization` as the `Authorization` header when it is not `nil`.
    func getUser(authorization: String?) async throws -> TestResponse {
        var headers = HTTPFields()
        if let authorization {
            headers[.authorization] = authorization
        }
        return try await execute(uri: "/api/User/User", method: .get, headers: headers)
    }
}

extension TestResponse {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }

    /// The tokens of a 200 login or refresh answer; throws for any other.
    func tokens(_ what: String) throws -> (accessToken: String, refreshToken: String) {
        guard status == .ok else { throw TestFailure("\(what) answered \(status): \(text)") }
        let body = try decode(Components.Schemas.LoginResponse.self)
        guard let refreshToken = body.refreshToken else { throw TestFailure("\(what) gave no refresh token") }
        return (body.accessToken, refreshToken)
    }

    /// The body decoded from JSON.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body.readableBytesView))
    }

    /// Whether the `Content-Type` is JSON.
    var isJSON: Bool { headers[.contentType]?.hasPrefix("application/json") ?? false }
}

/// Re-encodes `value` as JSON and decodes it as `T`; turns an `OpenAPIObjectContainer` into a plain struct.
func reencode<T: Decodable>(_ value: some Encodable, as type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: JSONEncoder().encode(value))
}

/// A precondition of a test that did not hold.
struct TestFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
