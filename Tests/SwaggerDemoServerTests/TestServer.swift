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

    let router: Router<BasicRequestContext>
    let options: DemoServer.Options

    /// Builds a router over `seeds` (the demo account is added unless a seed takes its e-mail).
    static func make(
        seeds: [AccountDirectory.Seed] = [], options: DemoServer.Options = DemoServer.Options()
    ) async throws -> TestServer {
        let directory = try await AccountDirectory.make(seeds: seeds, cost: bcryptCost)
        return TestServer(router: try await DemoServer.router(directory: directory, options: options), options: options)
    }

    /// Runs `test` against this router.
    func run<Value: Sendable>(_ test: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.router, test)
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
        let response = try await login(email: email, password: password)
        guard response.status == .ok else {
            throw TestFailure("login as \(email) answered \(response.status): \(response.text)")
        }
        return try response.decode(Components.Schemas.LoginResponse.self).accessToken
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
