import Foundation
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import SwaggerAPI

/// Builds the demo server: the account API under `/api`, backed by an ``AccountDirectory``.
public enum DemoServer {
    /// The path the API is served under.
    public static let basePath = "/api"

    /// Settings for the demo server.
    public struct Options: Sendable {
        /// The address to listen on.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        public var port = 8080
        /// The app id that logins must send.
        public var appID = "swaggerctl-demo"
        /// How long access tokens last.
        public var tokenLifetime: Duration = .seconds(3600)

        /// Creates the default options.
        public init() {}
    }

    /// The router with the API's handlers and middlewares.
    /// - Parameters:
    ///   - directory: The accounts.
    ///   - options: The settings.
    /// - Returns: A router for an `Application` or for tests.
    /// - Throws: When the handlers cannot be registered.
    public static func router(directory: AccountDirectory, options: Options) async throws -> Router<BasicRequestContext>
    {
        let issuer = await TokenIssuer(lifetime: options.tokenLifetime)
        let router = Router()
        let api = DemoAPI(directory: directory, issuer: issuer, appID: options.appID)
        try api.registerHandlers(
            on: router, serverURL: URL(string: basePath) ?? URL(filePath: "/"),
            middlewares: [MalformedRequestMiddleware(), BearerTokenMiddleware(issuer: issuer)])
        return router
    }

    /// The application. `onListening` receives the base URL once the socket is bound.
    /// - Parameters:
    ///   - directory: The accounts.
    ///   - options: The settings.
    ///   - onListening: Called with `http://HOST:PORT` when the server is ready.
    /// - Returns: The application; run it with `runService()`.
    /// - Throws: When the router cannot be built.
    public static func application(
        directory: AccountDirectory, options: Options, onListening: @escaping @Sendable (String) -> Void
    ) async throws -> some ApplicationProtocol {
        let host = options.host
        return Application(
            router: try await router(directory: directory, options: options),
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: "swagger-demo-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shownHost):\(port)")
            }
        )
    }
}
