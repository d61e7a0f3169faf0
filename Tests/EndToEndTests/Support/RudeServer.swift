import Foundation
import NIOCore
import NIOPosix

/// A TCP server on a loopback port that reads a request and then misbehaves below HTTP: it hangs up, answers
/// with bytes that are not HTTP, stops part-way through a response, or sends exactly the bytes a test
/// scripts (header values no HTTP library would send). It is a real socket peer, for faults that no HTTP
/// server library will produce.
enum RudeServer {
    enum Behaviour: Sendable {
        case hangUp
        case notHTTP
        case truncatedResponse
        /// These bytes, then a close.
        case scripted(String)

        var bytes: String {
            switch self {
            case .hangUp: ""
            case .notHTTP: "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"
            case .truncatedResponse:
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"accessToken\": "
            case .scripted(let bytes): bytes
            }
        }
    }

    /// Reads one whole request (headers and `Content-Length` bytes of body) before misbehaving, so that the
    /// close is a clean FIN: closing with unread input would make the kernel send a reset instead.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let behaviour: Behaviour
        private var request: [UInt8] = []
        private var answered = false

        init(_ behaviour: Behaviour) { self.behaviour = behaviour }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = unwrapInboundIn(data)
            request += chunk.readBytes(length: chunk.readableBytes) ?? []
            guard !answered, isComplete else { return }
            answered = true
            let reply = context.channel.allocator.buffer(string: behaviour.bytes)
            let channel = context.channel
            context.writeAndFlush(NIOAny(reply)).whenComplete { _ in channel.close(promise: nil) }
        }

        private var isComplete: Bool {
            let separator: [UInt8] = Array("\r\n\r\n".utf8)
            guard let end = request.indices.first(where: { request[$0...].starts(with: separator) }) else {
                return false
            }
            let head = String(decoding: request[..<end], as: UTF8.self).lowercased()
            let length =
                head.split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            return request.count >= end + separator.count + length
        }
    }

    /// Runs `body` with the API URL of a server that behaves as `behaviour` says.
    static func run(_ behaviour: Behaviour, _ body: (String) async throws -> Void) async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(behaviour))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body("http://127.0.0.1:\(channel.localAddress?.port ?? 0)/api")
            try await channel.close()
        } catch {
            try? await channel.close()
            throw error
        }
    }
}
