import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

/// A listener on another loopback address than the servers', which must receive nothing: it writes down each
/// request that reaches it, whatever its method, with the headers that could carry a credential, and answers 401
/// to all but two: `GET /hop?to=URL` redirects to URL, and `GET /loop` to itself.
enum Listener {
    static func run(_ body: @Sendable (_ authority: String, _ requests: OriginTests.Log) async throws -> Void)
        async throws
    {
        let requests = OriginTests.Log()
        let host = privateLoopbackHost()
        let router = Router()
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete, .options] {
            router.on("**", method: method) { request, _ in
                let credentials = [request.headers[.authorization], request.headers[.cookie]].compactMap { $0 }
                requests.add("\(request.method) \(request.uri.path) \(credentials)")
                let target: String? =
                    switch (request.method, request.uri.path) {
                    case (.get, "/loop"): "/loop"
                    case (.get, "/hop"): request.uri.queryParameters["to"].map(String.init)
                    default: nil
                    }
                guard let target else { return Response(status: .unauthorized) }
                return Response(status: .found, headers: [.location: target])
            }
        }
        // HummingbirdTesting always listens on localhost, the servers' address.
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: 0)),
            onServerRunning: { listening.yield($0.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.run() }
            var next = ports.makeAsyncIterator()
            let port = try #require(await next.next())
            try await body("\(host):\(port)", requests)
            group.cancelAll()
        }
    }
}
