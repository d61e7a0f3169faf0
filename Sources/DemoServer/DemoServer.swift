import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import OpenAPIHummingbird
import OpenAPIRuntime
import SwaggerAPI

/// Builds the demo server: the account API under `/api`, backed by a ``DemoDatabase``.
public enum DemoServer {
    /// The path the API is served under.
    public static let basePath = "/api"
    /// The largest request body accepted; a larger one is answered 413.
    public static let bodyLimit = 64 * 1024

    /// Settings for the demo server.
    public struct Options: Sendable {
        /// The address to listen on.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        public var port = 8080
        /// The app id that logins must send.
        public var appID = "swaggerctl-demo"
        /// How long access tokens last.
        public var accessTokenLifetime: Duration = .seconds(900)
        /// How long each refresh token lasts from when it is issued.
        public var refreshTokenLifetime: Duration = .seconds(30 * 86_400)
        /// The PEM certificate chain and private key to serve HTTPS with; plain HTTP when `nil`.
        public var tls: (certificateChain: String, privateKey: String)?

        /// Creates the default options.
        public init() {}
    }

    /// The router with the API's handlers and middlewares.
    /// - Parameters:
    ///   - directory: The accounts.
    ///   - database: Where the signing key and refresh-token families are kept.
    ///   - options: The settings.
    ///   - logger: Receives one line per login, refresh, revocation and detected reuse.
    /// - Returns: A router for an `Application` or for tests.
    /// - Throws: When the handlers cannot be registered or the database cannot be read.
    public static func router(
        directory: AccountDirectory, database: DemoDatabase, options: Options,
        logger: Logger = Logger(label: "swagger-demo-server")
    ) async throws -> Router<BasicRequestContext> {
        let families = SessionFamilies(database: database, lifetime: options.refreshTokenLifetime)
        let issuer = try await TokenIssuer(
            database: database, families: families, lifetime: options.accessTokenLifetime)
        let api = DemoAPI(
            directory: directory, issuer: issuer, families: families, appID: options.appID, logger: logger)
        let serverURL = URL(string: basePath) ?? URL(filePath: "/")
        let router = Router()
        // Added before the routes, so that it also sees requests the router would answer 404.
        router.add(
            middleware: RouteRulesMiddleware(routes: try RouteTable.of(api, serverURL: serverURL), bodyLimit: bodyLimit)
        )
        try api.registerHandlers(
            on: router, serverURL: serverURL,
            middlewares: [AcceptIgnoringMiddleware(), MalformedRequestMiddleware(), BearerTokenMiddleware()])
        return router
    }

    /// The application. `onListening` receives the base URL once the socket is bound.
    /// - Parameters:
    ///   - directory: The accounts.
    ///   - database: Where the signing key and refresh-token families are kept.
    ///   - options: The settings.
    ///   - onListening: Called with `http://HOST:PORT` when the server is ready.
    /// - Returns: The application; run it with `runService()`.
    /// - Throws: When the router cannot be built.
    public static func application(
        directory: AccountDirectory, database: DemoDatabase, options: Options,
        onListening: @escaping @Sendable (String) -> Void
    ) async throws -> some ApplicationProtocol {
        let host = options.host
        let scheme = options.tls == nil ? "http" : "https"
        return Application(
            router: try await router(directory: directory, database: database, options: options),
            server: try options.tls.map { try .tls(.http1(), tlsConfiguration: tlsConfiguration($0)) } ?? .http1(),
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: "swagger-demo-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                onListening("\(scheme)://\(shownHost):\(port)")
            }
        )
    }

    /// The server's TLS configuration from PEM files.
    private static func tlsConfiguration(_ files: (certificateChain: String, privateKey: String)) throws
        -> TLSConfiguration
    {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
            return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        } catch {
            throw DemoServerError(
                "Cannot serve TLS with \(files.certificateChain) and \(files.privateKey): \(error). Give a PEM "
                    + "certificate chain and its PEM private key.")
        }
    }
}
