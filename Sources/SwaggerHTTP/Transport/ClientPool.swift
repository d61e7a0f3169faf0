import AsyncHTTPClient
import NIOCore
import SwaggerModel
import Synchronization

/// The HTTP clients of one transport: one for each way out (directly or through one proxy) and set of trusted
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
