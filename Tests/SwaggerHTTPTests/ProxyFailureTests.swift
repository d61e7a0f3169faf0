import AsyncHTTPClient
import SwaggerModel
import Testing

@testable import SwaggerHTTP

/// tinyproxy, the proxy the end-to-end tests run, answers missing credentials with 401 rather than 407, so a
/// 407 is classified here, from the error AsyncHTTPClient throws for a tunnel and the status of a plain request.
@Suite("Failures through a proxy", .timeLimit(.minutes(5)))
struct ProxyFailureTests {
    static func proxy() throws -> ProxySettings.Proxy {
        try #require(try ProxySettings(environment: ["HTTPS_PROXY": "http://me:pw@10.0.0.1:3128"]).https)
    }

    @Test("a 407, to a CONNECT or to a plain http request, is the proxy asking for credentials")
    func authenticationRequired() throws {
        let proxy = try Self.proxy()
        let tunnel = APIService.classify(HTTPClientError.proxyAuthenticationRequired)
        let plain = APIServiceError.requestRejected(status: 407, message: "Proxy Authentication Required")
        for failure in [tunnel, plain] {
            #expect(
                APIService.atProxy(failure, proxy)
                    == .proxyFailed(proxy: "http://me:[redacted]@10.0.0.1:3128", .authenticationRequired))
        }
    }

    @Test("a proxy that cannot be reached, or will not tunnel, is the proxy's failure; a server's answer is not")
    func otherFailures() throws {
        let proxy = try Self.proxy()
        let shown = proxy.description
        #expect(
            APIService.atProxy(.unreachable("connection refused"), proxy)
                == .proxyFailed(proxy: shown, .unreachable("connection refused")))
        let tunnel = APIService.classify(HTTPClientError.invalidProxyResponse)
        #expect(APIService.atProxy(tunnel, proxy) == .proxyFailed(proxy: shown, .refused))
        #expect(APIService.atProxy(.tokenRejected(challenge: nil), proxy) == .tokenRejected(challenge: nil))
    }
}
