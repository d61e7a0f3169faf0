import AsyncHTTPClient
import Foundation
import SwaggerModel
import Testing

@testable import SwaggerHTTP

@Suite(
    "The browser grants' pieces: PKCE, the loopback listener, the device authorization answer", .timeLimit(.minutes(5)))
struct BrowserGrantTests {
    @Test("S256 of RFC 7636's Appendix B verifier is its challenge; fresh verifiers are 43 characters and differ")
    func pkce() {
        let known = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", state: "s")
        #expect(known.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let (a, b) = (PKCE(), PKCE())
        #expect(a.verifier.count == 43 && a.verifier != b.verifier && a.state != b.state)
        #expect(a.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect("\(a)" == "PKCE(redacted)")
        #expect(Redactor.isSecret("device_code") && Redactor.isSecret("code_verifier"))
    }

    @Test("the listener reports the redirect path's query, answers with the owner's page, and 404s anything else")
    func listener() async throws {
        let listener = try await LoopbackListener.open(path: "/callback")
        #expect(listener.redirectURI.absoluteString.hasPrefix("http://127.0.0.1:"))
        let base = listener.redirectURI.absoluteString.dropLast("/callback".count)
        #expect(try await Self.get(base + "/favicon.ico").status == 404)

        async let answer = Self.get(listener.redirectURI.absoluteString + "?code=c%2B1&state=s&code=again")
        var callbacks = listener.callbacks.makeAsyncIterator()
        let callback = try #require(await callbacks.next())
        #expect(callback.query == ["code": "c+1", "state": "s"])
        callback.respond(LoopbackListener.Page(text: "Signed in <here> & done."))
        let (status, body) = try await answer
        #expect(status == 200)
        #expect(body.contains("Signed in &lt;here&gt; &amp; done."))
        await listener.close()
    }

    /// A browser's request: the status, and the page.
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 16)
        return (Int(response.status.code), String(buffer: body))
    }

    @Test("a device authorization answer's code and addresses must be safe to print, or it is refused")
    func deviceAnswer() throws {
        let url = try #require(URL(string: "https://id.example.com/device_authorization"))
        let good = Data(
            #"{"device_code":"dc","user_code":"WDJB-MJHT","verification_uri":"/device","expires_in":"600","interval":3}"#
                .utf8)
        let read = try APIService.deviceAuthorization(good, at: url)
        #expect(read.verificationURI.absoluteString == "https://id.example.com/device")
        #expect(read.interval == .seconds(3) && read.expiresIn == .seconds(600) && read.userCode == "WDJB-MJHT")
        // A complete address that shows one host and opens another is left out; the plain one is shown.
        let disguised = Data(
            #"{"device_code":"dc","user_code":"A","verification_uri":"/d","verification_uri_complete":"http://127.0.0.1:9@evil.example/d?c=A","expires_in":600}"#
                .utf8)
        #expect(try APIService.deviceAuthorization(disguised, at: url).verificationURIComplete == nil)
        for bad in [
            #"{"device_code":"dc","user_code":"\u001b[2J","verification_uri":"https://x/d","expires_in":600}"#,
            #"{"device_code":"dc","user_code":"A","verification_uri":"javascript:alert(1)","expires_in":600}"#,
            #"{"device_code":"dc","user_code":"A","verification_uri":"https://x/d"}"#,
            #"{"device_code":"d c","user_code":"A","verification_uri":"https://x/d","expires_in":600}"#,
            // A code of spaces alone is nothing to type.
            #"{"device_code":"dc","user_code":"\#(String(repeating: " ", count: 64))","verification_uri":"https://x/d","expires_in":600}"#,
            #"{"device_code":"dc","user_code":"A","verification_uri":"http://127.0.0.1:80@evil.example/d","expires_in":600}"#,
        ] {
            #expect(throws: APIServiceError.self, "\(bad)") {
                try APIService.deviceAuthorization(Data(bad.utf8), at: url)
            }
        }
    }
}
