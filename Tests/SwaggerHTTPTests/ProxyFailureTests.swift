import AsyncHTTPClient
import Foundation
import SwaggerModel
import Testing

@testable import SwaggerHTTP

/// tinyproxy, the proxy the end-to-end tests run, answers missing credentials with 401 rather than 407, so a
/// 407 is shown here, from a proxy on a loopback port that answers with it.
@Suite("Failures through a proxy", .timeLimit(.minutes(5)))
struct ProxyFailureTests {
    static func proxy() throws -> ProxySettings.Proxy {
        try #require(try ProxySettings(environment: ["HTTPS_PROXY": "http://me:pw@10.0.0.1:3128"]).https)
    }

    @Test("a 407 is the proxy asking for credentials, for a plain http request too, which goes through a tunnel")
    func plainAuthenticationRequired() async throws {
        try await ScriptedServer.run([ScriptedServer.Reply(status: .proxyAuthenticationRequired)]) { base, server in
            let proxies = try ProxySettings(environment: ["HTTP_PROXY": base])
            let service = APIService(timeout: .seconds(60), proxies: proxies)
            let url = try #require(URL(string: "http://10.0.0.1/items"))
            await #expect(throws: APIServiceError.proxyFailed(proxy: base, .authenticationRequired)) {
                try await service.send(OutgoingRequest(.GET, url))
            }
            await service.shutdown()
            #expect(server.requests.map { "\($0.head.method) \($0.head.uri)" } == ["CONNECT 10.0.0.1:80"])
        }
    }

    @Test("a proxy that cannot be reached, or will not tunnel, is the proxy's failure; a server's answer is not")
    func otherFailures() throws {
        let proxy = try Self.proxy()
        let shown = proxy.description
        #expect(
            AsyncHTTPTransport.atProxy(.unreachable("connection refused"), proxy)
                == .proxyFailed(proxy: shown, .unreachable("connection refused")))
        let tunnel = AsyncHTTPTransport.classify(HTTPClientError.invalidProxyResponse)
        #expect(AsyncHTTPTransport.atProxy(tunnel, proxy) == .proxyFailed(proxy: shown, .refused))
        #expect(AsyncHTTPTransport.atProxy(.tokenRejected(challenge: nil), proxy) == .tokenRejected(challenge: nil))
    }
}
