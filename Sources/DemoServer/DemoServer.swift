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
package enum DemoServer {
    /// The path the API is served under.
    package static let basePath = "/api"
    /// The largest request body accepted; a larger one is answered 413.
    package static let bodyLimit = 64 * 1024

    /// Settings for the demo server.
    package struct Options: Sendable {
        /// The address to listen on.
        package var host = "127.0.0.1"
        /// The port; 0 picks a free one.
        package var port = 8080
        /// The app id that logins must send.
        package var appID = "swaggerctl-demo"
        /// How long access tokens last.
        package var accessTokenLifetime: Duration = .seconds(900)
        /// How long each refresh token lasts from when it is issued.
        package var refreshTokenLifetime: Duration = .seconds(30 * 86_400)
        /// The PEM certificate chain and private key to serve HTTPS with; plain HTTP when `nil`.
        package var tls: (certificateChain: String, privateKey: String)?
        /// The clock that every expiry is measured by.
        package var clock = DemoClock()
        /// Whether `POST /_test/clock?advance=SECONDS` moves ``clock``, for connections from this machine.
        package var exposesTestClock = false

        package init() {}
    }

    /// The document's `ETag`: its length and a hash of its bytes, so that a client's copy is checked, not fetched.
    static let documentTag: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in PackageResources.openapi_yaml { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return "\"\(PackageResources.openapi_yaml.count)-\(String(hash, radix: 16))\""
    }()

    /// The router with the API's handlers and middlewares.
    /// - Parameters:
    ///   - database: Where the signing key and refresh-token families are kept.
    ///   - logger: Receives one line per login, refresh, revocation and detected reuse.
    package static func router(
        directory: AccountDirectory, database: DemoDatabase, options: Options,
        logger: Logger = Logger(label: "swagger-demo-server")
    ) async throws -> Router<DemoRequestContext> {
        let families = SessionFamilies(
            database: database, lifetime: options.refreshTokenLifetime, clock: options.clock)
        let issuer = try await TokenIssuer(
            database: database, families: families, lifetime: options.accessTokenLifetime, clock: options.clock)
        let api = DemoAPI(
            directory: directory, issuer: issuer, families: families, appID: options.appID, logger: logger)
        let serverURL = URL(string: basePath) ?? URL(filePath: "/")
        let router = Router(context: DemoRequestContext.self)
        if options.exposesTestClock { addTestClock(options.clock, to: router) }
        router.get("\(basePath)/openapi.yaml") { request, _ in
            if request.headers[.ifNoneMatch] == documentTag {
                return Response(status: .notModified, headers: [.eTag: documentTag])
            }
            return Response(
                status: .ok, headers: [.contentType: "application/yaml", .eTag: documentTag],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
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
    /// - Parameter database: Where the signing key and refresh-token families are kept.
    /// - Returns: The application; run it with `runService()`.
    package static func application(
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

    /// `POST /_test/clock?advance=SECONDS`: moves `clock` forward, so that tests make tokens expire without
    /// waiting. Only connections from this machine may, whatever address the server listens on.
    private static func addTestClock(_ clock: DemoClock, to router: Router<DemoRequestContext>) {
        router.post("/_test/clock") { request, context -> HTTPResponse.Status in
            guard context.isFromThisMachine else { return .forbidden }
            guard let seconds = request.uri.queryParameters.get("advance", as: Int.self), seconds >= 0 else {
                return .badRequest
            }
            clock.advance(by: .seconds(seconds))
            return .noContent
        }
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
