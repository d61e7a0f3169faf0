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
        "an address typed without a scheme is http on loopback, where nothing leaves the machine, and https elsewhere",
        arguments: [
            ("127.0.0.1:41991/api", "http://127.0.0.1:41991/api"),
            ("localhost:8080", "http://localhost:8080"),
            ("app.localhost:8080/api/", "http://app.localhost:8080/api"),
            ("[::1]:8080/api", "http://[::1]:8080/api"),
            ("127.9.8.7/api", "http://127.9.8.7/api"),
            ("api.example.com/api", "https://api.example.com/api"),
            ("api.example.com:8443", "https://api.example.com:8443"),
            ("127.0.0.1.example.com/api", "https://127.0.0.1.example.com/api"),
            ("localhost.example.com:80/api", "https://localhost.example.com:80/api"),
            ("10.0.0.1:8080/api", "https://10.0.0.1:8080/api"),
            ("HTTP://127.0.0.1:8080/api", "http://127.0.0.1:8080/api"),
        ])
    func assumedScheme(text: String, expected: String) throws {
        #expect(try ServerURL(typed: text).string == expected)
        guard case .url(let server) = try ServerReference(text) else {
            Issue.record("\(text) is read as a name")
            return
        }
        #expect(server.string == expected)
        let said = ServerURL.assumption(in: text)
        #expect((said == nil) == text.contains("://"), "\(said ?? "nothing")")
        #expect(
            said?.hasSuffix(expected.hasPrefix("https") ? "https://." : "http://, as the address is on this machine.")
                ?? true)
    }

    @Test("a typed address without a scheme is still refused for what a URL may not carry, and a word is a name")
    func assumedSchemeRefusals() throws {
        #expect(throws: SwaggerError.self) { try ServerURL(typed: "ana:secret@127.0.0.1:8080/api") }
        #expect(throws: SwaggerError.self) { try ServerURL(typed: "127.0.0.1:99999/api") }
        #expect(throws: SwaggerError.self) { try ServerURL(typed: "ftp://127.0.0.1/api") }
        #expect(throws: SwaggerError.self) { try ServerURL("127.0.0.1:8080/api") }
        #expect(try ServerReference("demo") == .name(try ServerName("demo")))
        #expect(try ServerReference("demo").assumption(typed: "demo") == nil)
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

    @Test(
        "a path under a server typed with its API's prefix is joined where it repeats the prefix, else appended",
        arguments: [
            ("https://h/_allauth", "/_allauth/app/v1/auth/login", "https://h/_allauth/app/v1/auth/login"),
            ("https://h/_matrix/client/v3", "/_matrix/client/v3/login", "https://h/_matrix/client/v3/login"),
            (
                "https://h/_matrix/client/v3", "/_matrix/client/versions",
                "https://h/_matrix/client/v3/_matrix/client/versions"
            ),
            ("https://h.example.com/a/b", "/b/c?x=/b/", "https://h.example.com/a/b/c?x=/b/"),
            ("https://h.example.com/api", "/User/AdminLogin", "https://h.example.com/api/User/AdminLogin"),
            ("https://h.example.com/api", "items", "https://h.example.com/api/items"),
            // The whole prefix, and nothing after it, is a path under it.
            ("https://h.example.com/_allauth", "/_allauth", "https://h.example.com/_allauth/_allauth"),
            ("https://h.example.com/api", "/api/", "https://h.example.com/api/"),
            ("https://h.example.com", "/api/items", "https://h.example.com/api/items"),
            // Segments are compared whole, and a doubled slash is kept as it is.
            ("https://h.example.com/api", "/apis/x", "https://h.example.com/api/apis/x"),
            ("https://h.example.com/api", "/api//x", "https://h.example.com/api//x"),
        ])
    func joining(server: String, path: String, expected: String) throws {
        #expect(try ServerURL(server).joining(path) == expected)
        #expect(try ServerURL(server).resolve(path).absoluteString == expected)
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
