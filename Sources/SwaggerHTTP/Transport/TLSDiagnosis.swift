import FoundationEssentials
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import SwaggerModel

/// Finds out why a server's certificate was refused, after BoringSSL refused it.
///
/// BoringSSL reports every refused chain as `CERTIFICATE_VERIFY_FAILED`, without saying whether the
/// certificate expired or was issued by an authority that is not trusted, and AsyncHTTPClient gives no way to
/// see the certificate. So a second connection is made, through the same proxy, whose verification callback
/// only records the chain and then refuses it: the handshake stops there, and nothing is ever sent to the
/// server. The leaf's dates tell an expired or not-yet-valid certificate from an untrusted one.
enum TLSDiagnosis {
    /// Why `server`'s certificate was refused: ``TLSFailure/expired(_:)``,
    /// ``TLSFailure/notYetValid(_:)``, or ``TLSFailure/untrusted`` when the dates are fine or the chain
    /// could not be seen again.
    static func reason(
        for server: ServerURL, through proxy: ProxySettings.Proxy?, within limit: Duration, now: Date
    ) async -> TLSFailure {
        guard let host = server.url.host(percentEncoded: false) else { return .untrusted }
        let port = server.url.port ?? 443
        guard let leaf = try? await peerCertificates(host: host, port: port, proxy: proxy, limit: limit).first else {
            return .untrusted
        }
        let notAfter = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        let notBefore = Date(timeIntervalSince1970: TimeInterval(leaf.notValidBefore))
        if notAfter < now { return .expired(notAfter) }
        if notBefore > now { return .notYetValid(notBefore) }
        return .untrusted
    }

    /// The chain `host` presents, seen by a handshake that is refused as soon as the chain arrives.
    private static func peerCertificates(host: String, port: Int, proxy: ProxySettings.Proxy?, limit: Duration)
        async throws -> [NIOSSLCertificate]
    {
        let seen = NIOLockedValueBox<[NIOSSLCertificate]>([])
        var configuration = TLSConfiguration.makeClientConfiguration()
        // The callback below replaces BoringSSL's verification, but BoringSSL heeds its refusal only when
        // verification is asked for: under `.none` the handshake would complete, and the channel stay open until
        // the deadline.
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ClientBootstrap(group: CommandLoop.group)
            .connectTimeout(TimeAmount(limit))
            .connect(host: proxy?.host ?? host, port: proxy?.port ?? port).get()
        channel.eventLoop.scheduleTask(in: TimeAmount(limit)) { channel.close(promise: nil) }
        do {
            if let proxy { try await tunnel(channel, to: host, port: port, through: proxy) }
            // Handlers are not Sendable: each is made and added on the channel's loop, where it then lives.
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(
                    context: context, serverHostname: IPAddress(host) == nil ? host : nil
                ) { (certificates: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResult>) in
                    seen.withLockedValue { $0 = certificates }
                    promise.succeed(.failed)
                }
                try channel.pipeline.syncOperations.addHandler(handler)
            }.get()
        } catch {
            channel.close(promise: nil)
            throw error
        }
        // The refused handshake closes the channel; the deadline above closes it otherwise.
        try? await channel.closeFuture.get()
        return seen.withLockedValue { $0 }
    }

    /// Asks an HTTP proxy for a tunnel to `host:port`, as AsyncHTTPClient does, and waits for its 2xx.
    private static func tunnel(_ channel: any Channel, to host: String, port: Int, through proxy: ProxySettings.Proxy)
        async throws
    {
        let target = IPAddress(host).map { $0.bytes.count == 16 } == true ? "[\(host)]:\(port)" : "\(host):\(port)"
        var request = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let user = proxy.username {
            let credentials = Data("\(user):\(proxy.password ?? "")".utf8).base64EncodedString()
            request += "Proxy-Authorization: Basic \(credentials)\r\n"
        }
        request += "\r\n"
        let answered = channel.eventLoop.makePromise(of: Void.self)
        try await channel.eventLoop.submit { try channel.pipeline.syncOperations.addHandler(TunnelAnswer(answered)) }
            .get()
        try await channel.writeAndFlush(ByteBuffer(string: request)).get()
        try await answered.futureResult.get()
    }

    /// Reads the proxy's answer to CONNECT, then leaves the pipeline to the TLS handler.
    private final class TunnelAnswer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer

        struct Refused: Error {}

        private let answered: EventLoopPromise<Void>
        private var head: [UInt8] = []

        init(_ answered: EventLoopPromise<Void>) {
            self.answered = answered
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            head += buffer.readBytes(length: buffer.readableBytes) ?? []
            guard let text = String(bytes: head, encoding: .utf8), text.contains("\r\n\r\n") else { return }
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
            if (200..<300).contains(status) { answered.succeed() } else { answered.fail(Refused()) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            answered.fail(Refused())
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            answered.fail(error)
        }
    }
}
