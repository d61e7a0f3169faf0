import Foundation
import Testing

@testable import SwaggerModel

@Suite("ServerURL: one canonical spelling per API base URL", .timeLimit(.minutes(5)))
struct ServerURLTests {
    @Test(
        "base URLs are normalised: scheme and host lowercased, default port and trailing slashes removed",
        arguments: [
            ("HTTP://Example.COM:80/api/", "http://example.com/api"),
            ("https://example.com:443/api", "https://example.com/api"),
            ("HTTPS://EXAMPLE.com:443/", "https://example.com"),
            ("https://example.com:8443/api", "https://example.com:8443/api"),
            ("http://example.com:443/api", "http://example.com:443/api"),
            ("https://example.com:80/api", "https://example.com:80/api"),
            ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080/api"),
            ("http://localhost:8080/v1/accounts/api///", "http://localhost:8080/v1/accounts/api"),
            ("https://example.com/Case/Kept", "https://example.com/Case/Kept"),
            ("https://example.com", "https://example.com"),
            ("  https://example.com/api  ", "https://example.com/api"),
            ("http://[::1]:8080/api", "http://[::1]:8080/api"),
        ])
    func normalised(text: String, expected: String) throws {
        let server = try ServerURL(text)
        #expect(server.string == expected)
        #expect(server.description == expected)
        #expect(server.url.absoluteString == expected)
    }

    @Test(
        "a URL is on the server's origin when its scheme, host and port are the server's, in any spelling",
        arguments: [
            ("http://example.com/api", "http://example.com/api/items?page=2", true),
            ("http://example.com/api", "HTTP://EXAMPLE.com:80/elsewhere", true),
            ("http://example.com/api", "http://example.com", true),
            ("https://example.com", "https://example.com:443/x", true),
            ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080//x", true),
            ("http://[::1]:8080/api", "http://[::1]:8080/x", true),
            ("http://example.com/api", "https://example.com/api", false),
            ("http://example.com/api", "http://example.com:8080/api", false),
            ("http://example.com:8080/api", "http://example.com:80/api", false),
            ("http://example.com:8080/api", "http://example.com:808/api", false),
            ("http://example.com/api", "http://example.com.evil/api", false),
            ("http://example.com/api", "http://example.co/api", false),
            ("http://example.com/api", "http://user@example.community/api", false),
            ("http://example.com/api", "ftp://example.com/api", false),
            // Its text begins with the origin, and the authority goes on past it.
            ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080@evil.example/x", false),
            ("http://example.com/api", "http://example.com?page=2", true),
            ("http://example.com/api", "http://example.com#top", true),
        ])
    func sameOrigin(server: String, url: String, expected: Bool) throws {
        #expect(try ServerURL(server).isSameOrigin(#require(URL(string: url))) == expected)
    }

    @Test("two spellings of one server are equal")
    func equalSpellings() throws {
        #expect(try ServerURL("HTTP://Example.COM:80/api/") == ServerURL("http://example.com/api"))
        #expect(try ServerURL("https://example.com/api") != ServerURL("https://example.com/API"))
    }

    @Test(
        "anything but an http(s) base URL with a host is a usage error",
        arguments: [
            "ftp://x", "example.com", "http://", "https://", "http://h/api?x=1", "http://h/api?", "http://h/api#top",
            "http://user:pw@h/api", "http://user@h/api", "", "file:///etc/passwd", "mailto:ana@example.com",
            "http//example.com",
        ])
    func rejected(text: String) {
        let error = #expect(throws: SwaggerError.self) { try ServerURL(text) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("https://host/api") == true)
    }

    @Test("a URL carrying credentials is rejected without repeating the password")
    func credentialsNotEchoed() {
        let error = #expect(throws: SwaggerError.self) { try ServerURL("https://ana:S3cret-pw@example.com/api") }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("carries credentials") == true)
        // SwaggerError promises that its message never contains a secret.
        #expect(error?.message.contains("S3cret-pw") == false)
    }
}
