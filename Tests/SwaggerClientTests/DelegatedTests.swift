import Foundation
import SwaggerClient
import SwaggerModel
import SwaggerServers
import TestSupport
import Testing

@Suite("A server that names another as its own: what the person is told, and what allows it", .timeLimit(.minutes(5)))
struct DelegatedTests {
    static let asked = Fixtures.serverURL("https://example.com")
    static let source = Fixtures.serverURL("https://example.com/.well-known/matrix/client").url

    @Test("the refusal's words a person copies into a shell are quoted: the server is a document's")
    func quoted() {
        let hostile = Discovery.Delegated(
            preset: "matrix", server: Fixtures.serverURL("https://matrix.example.net/$(touch%20x)"), source: Self.source
        )
        let refusal = hostile.refusal(for: Self.asked)
        #expect(refusal.hasSuffix("-s 'https://matrix.example.net/$(touch%20x)'."), "\(refusal)")
        let plain = Discovery.Delegated(
            preset: "matrix", server: Fixtures.serverURL("https://matrix.example.net"), source: Self.source)
        let expected =
            "https://example.com says it is served by https://matrix.example.net (/.well-known/matrix/client): "
            + "log in there with --allow-origin https://matrix.example.net or -s https://matrix.example.net."
        #expect(plain.refusal(for: Self.asked) == expected)
    }

    @Test("--allow-origin allows it by origin, written whole or as a host, and nothing else does")
    func allowed() {
        let delegated = Discovery.Delegated(
            preset: "matrix", server: Fixtures.serverURL("https://matrix.example.net:8448/synapse"), source: Self.source
        )
        #expect(delegated.isAllowed(by: ["https://matrix.example.net:8448"]))
        #expect(delegated.isAllowed(by: ["other.example", "matrix.example.net:8448"]))
        #expect(!delegated.isAllowed(by: ["matrix.example.net", "http://matrix.example.net:8448", "example.com"]))
        #expect(!delegated.isAllowed(by: ["https://matrix.example.net:8448/synapse"]), "an origin, not a URL")
    }
}
