import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import SwaggerModel

/// The listener a browser login's redirect comes back to (RFC 8252 §7.3): HTTP on `127.0.0.1`, on a port the
/// system picks, for the one redirect path. Every other path is answered 404 and never reported; a request on
/// the path is reported with its query, and answered with the page the owner decides on.
package final class LoopbackListener: Sendable {
    /// A request to the redirect path, and how to answer the browser that made it.
    package struct Callback: Sendable {
        /// The query's parameters; a name given twice keeps its first value.
        package var query: [String: String]
        private let answer: EventLoopPromise<Page>

        init(query: [String: String], answer: EventLoopPromise<Page>) {
            self.query = query
            self.answer = answer
        }

        /// Shows `page` in the browser that made the request.
        package func respond(_ page: Page) { answer.succeed(page) }
    }

    /// What the browser is shown: a short page that says to go back to the terminal.
    package struct Page: Sendable {
        package var status: Int
        package var text: String

        package init(status: Int = 200, text: String) {
            self.status = status
            self.text = text
        }
    }

    /// `http://127.0.0.1:PORT/PATH`, the redirect URI to register the login with.
    package let redirectURI: URL
    /// The requests to the redirect path, in the order they came.
    package let callbacks: AsyncStream<Callback>
    private let channel: any Channel

    private init(redirectURI: URL, callbacks: AsyncStream<Callback>, channel: any Channel) {
        self.redirectURI = redirectURI
        self.callbacks = callbacks
        self.channel = channel
    }

    /// Listens on `127.0.0.1`, on a port of the system's choosing.
    /// - Parameter path: The redirect URI's path, such as `/callback`.
    /// - Throws: ``APIServiceError/unreachable(_:)`` when no port could be had.
    package static func open(path: String) async throws(APIServiceError) -> LoopbackListener {
        let (callbacks, continuation) = AsyncStream.makeStream(of: Callback.self)
        let bootstrap = ServerBootstrap(group: CommandLoop.group)
            .serverChannelOption(.backlog, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        CallbackHandler(path: path, deliver: { continuation.yield($0) }))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        } catch {
            throw .unreachable("no port on 127.0.0.1 could be listened on for the browser's answer: \(error)")
        }
        channel.closeFuture.whenComplete { _ in continuation.finish() }
        let port = channel.localAddress?.port ?? 0
        guard let redirectURI = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            try? await channel.close()
            throw .unreachable("the listener's address could not be made into a URL")
        }
        return LoopbackListener(redirectURI: redirectURI, callbacks: callbacks, channel: channel)
    }

    /// Stops listening. Connections already open are answered, and closed by the browser.
    package func close() async {
        try? await channel.close()
    }
}

/// Reads each request on a connection, reports those to the redirect path, and answers each as told.
private final class CallbackHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let path: String
    private let deliver: @Sendable (LoopbackListener.Callback) -> Void
    private var head: HTTPRequestHead?

    init(path: String, deliver: @escaping @Sendable (LoopbackListener.Callback) -> Void) {
        self.path = path
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let components = URLComponents(string: head.uri)
            // Only this machine can connect to 127.0.0.1, but a request that says otherwise is not the browser's.
            guard head.method == .GET, components?.path == path, context.remoteAddress?.isLoopback != false else {
                respond(context, LoopbackListener.Page(status: 404, text: "Not found."))
                return
            }
            var query: [String: String] = [:]
            for item in components?.queryItems ?? [] where query[item.name] == nil {
                query[item.name] = item.value ?? ""
            }
            let answer = context.eventLoop.makePromise(of: LoopbackListener.Page.self)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            answer.futureResult.whenSuccess { page in bound.value.0.respond(bound.value.1, page) }
            deliver(LoopbackListener.Callback(query: query, answer: answer))
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ page: LoopbackListener.Page) {
        let html = Self.document(page.text)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(html.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: page.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: html)))), promise: nil)
        let close = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in close.value.close(promise: nil) }
    }

    /// A page with nothing but the text, escaped: it may name the server.
    private static func document(_ text: String) -> String {
        let escaped = text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        return "<!doctype html><html><head><meta charset=\"utf-8\"><title>swaggerctl</title></head>"
            + "<body><p>\(escaped)</p></body></html>\n"
    }
}

extension SocketAddress {
    fileprivate var isLoopback: Bool {
        switch self {
        case .v4: ipAddress?.hasPrefix("127.") == true
        case .v6: ipAddress == "::1"
        default: false
        }
    }
}
