import FoundationEssentials
import NIOCore
import NIOHTTP1
import SwaggerModel

/// The one seam every request goes through, below everything ``APIService`` decides: what a transport is given is
/// the request as it goes on the wire (its `User-Agent`, its token, its DPoP proof), and what it returns is the answer
/// as it came back. The command's transport is ``AsyncHTTPTransport``; a test's answers as the test recorded them.
///
/// A transport names its own failures: whatever goes wrong below HTTP (a refused connection, a proxy, TLS, the
/// deadline) reaches the service as an ``APIServiceError``.
package protocol HTTPTransport: Sendable {
    /// Starts `request`: a transport that can sends it before this returns and reads its answer as it arrives,
    /// whether or not anyone awaits it yet.
    func start(_ request: TransportRequest) -> TransportExchange

    /// Closes the transport's connections. Called once, after the last request.
    func shutdown() async
}

/// A request as it goes on the wire, and the way it goes there.
package struct TransportRequest: Sendable {
    package var method: HTTPMethod
    package var url: URL
    /// `url`'s origin, where the connection goes unless through ``proxy``.
    package var origin: ServerURL
    package var headers: HTTPHeaders
    package var body: Data?
    /// The most of the answer's body that is read: a success past it is a broken contract, an error answer is cut
    /// there.
    package var limit: Int
    /// The proxy the environment names for ``origin``.
    package var proxy: ProxySettings.Proxy?
    /// The authorities trusted, and the certificate presented, in a TLS handshake.
    package var trust: TrustSettings
    /// Whether the request may go once more on a new connection when a kept-alive one that the server closed
    /// took it (RFC 9110 §9.2.2): idempotent requests that may be repeated.
    var resendable: Bool

    package init(
        method: HTTPMethod, url: URL, origin: ServerURL, headers: HTTPHeaders = [:], body: Data? = nil,
        limit: Int = ResponseCollector.defaultLimit, proxy: ProxySettings.Proxy? = nil,
        trust: TrustSettings = TrustSettings(), resendable: Bool = false
    ) {
        self.method = method
        self.url = url
        self.origin = origin
        self.headers = headers
        self.body = body
        self.limit = limit
        self.proxy = proxy
        self.trust = trust
        self.resendable = resendable
    }
}

/// A request a transport has started, whose answer comes as it came back.
package typealias TransportExchange = Pending<TransportAnswer>

/// An answer as it came back: its head, and its body to the request's limit.
package struct TransportAnswer: Sendable {
    package var head: HTTPResponseHead
    package var body: ByteBuffer

    package init(head: HTTPResponseHead, body: ByteBuffer) {
        self.head = head
        self.body = body
    }
}
