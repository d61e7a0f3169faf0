import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP server on a loopback port that answers each request with the next of its scripted replies (the last
/// one again once they run out), and keeps what it was sent.
final class ScriptedServer: Sendable {
    struct Reply: Sendable {
        var status: HTTPResponseStatus
        var headers: [(String, String)] = []
        /// The body; `{echo}` in it stands for what the request carried, as a hostile server quotes it back.
        var body = ""
        /// Whether the connection is closed instead, with no answer, as a server closes an idle kept-alive one.
        var closes = false
    }

    /// A request as it arrived.
    struct Received: Sendable {
        var head: HTTPRequestHead
        var body: String
    }

    private let replies: [Reply]
    private let received = Mutex<[Received]>([])

    private init(_ replies: [Reply]) {
        self.replies = replies
    }

    /// Every request so far, in order.
    var requests: [Received] { received.withLock { $0 } }

    /// Runs `body` with the server's base URL, `http://127.0.0.1:<port>`, and the server.
    static func run(_ replies: [Reply], _ body: (String, ScriptedServer) async throws -> Void) async throws {
        let server = ScriptedServer(replies)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body("http://127.0.0.1:\(channel.localAddress?.port ?? 0)", server)
            try await channel.close()
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Keeps `request` and gives the reply it is due.
    private func answer(_ request: Received) -> Reply {
        let count = received.withLock { received in
            received.append(request)
            return received.count
        }
        return replies[min(count, replies.count) - 1]
    }

    private final class Handler: ChannelInboundHandler {
        /// Everything secret a request can carry, as a JSON string's content: its body, each credential header, and a
        /// Basic one's account and password decoded.
        static func echo(_ head: HTTPRequestHead, _ body: String) -> String {
            var said = [body] + head.headers["Authorization"] + head.headers["Proxy-Authorization"]
            for value in head.headers["Authorization"] where value.hasPrefix("Basic ") {
                said +=
                    Data(base64Encoded: String(value.dropFirst(6))).map { [String(decoding: $0, as: UTF8.self)] } ?? []
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let encoded = (try? encoder.encode(said.joined(separator: " "))) ?? Data("\"\"".utf8)
            return String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self)
        }

        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: ScriptedServer
        private var head: HTTPRequestHead?
        private var body = ""

        init(_ server: ScriptedServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = ""
            case .body(let part):
                body += String(buffer: part)
            case .end:
                guard let head else { return }
                let reply = server.answer(Received(head: head, body: body))
                if reply.closes {
                    context.close(promise: nil)
                    return
                }
                let text = reply.body.replacing("{echo}", with: Self.echo(head, body))
                var headers = HTTPHeaders(reply.headers)
                headers.add(name: "Content-Length", value: String(text.utf8.count))
                let response = HTTPResponseHead(version: head.version, status: reply.status, headers: headers)
                context.write(wrapOutboundOut(.head(response)), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
