import Hummingbird
import NIOCore

/// Hummingbird's basic request context, plus the peer's address, which decides who may move the test clock.
package struct DemoRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Whether the request came from this machine: 127.0.0.0/8 or ::1, also as an IPv4-mapped address.
    var isFromThisMachine: Bool {
        guard let address = remoteAddress?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
