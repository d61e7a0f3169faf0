import Foundation
import HTTPTypes
import SwaggerModel
import Testing

@testable import SwaggerHTTP

@Suite("HTTPClientTransport: the URL a request goes to")
struct TransportURLTests {
    static func url(_ path: String, under base: String) throws -> String {
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: path)
        return try HTTPClientTransport.url(of: request, under: try #require(URL(string: base)))
    }

    @Test(
        "the path and query follow the base URL's path, and a path that begins with two slashes keeps the host",
        arguments: [
            ("//api/oidc/token", "http://127.0.0.1:4593", "http://127.0.0.1:4593//api/oidc/token"),
            ("/api/items?page=2&q=a%20b", "https://h.example.com", "https://h.example.com/api/items?page=2&q=a%20b"),
            ("/User/User", "http://h/api", "http://h/api/User/User"),
            ("/a?", "http://h", "http://h/a?"),
            ("//x//y?z=//w", "http://h", "http://h//x//y?z=//w"),
        ])
    func joined(path: String, base: String, expected: String) throws {
        #expect(try Self.url(path, under: base) == expected)
    }
}

@Suite("LastOrigin: the origin of each request, kept from the one before when they share it")
struct LastOriginTests {
    @Test("each URL in turn has the origin it would have alone, however the one before was spelled")
    func originInTurn() throws {
        let origins = LastOrigin()
        for text in [
            "http://a.example/x", "http://a.example/y?p=2", "http://a.example:8080/y", "HTTP://A.example:80/z",
            "http://a.example@b.example/", "http://b.example/", "https://b.example/", "https://b.example:443/q",
            "ftp://b.example/", "http://[::1]:8080/x", "http://[::1]:8081/x",
        ] {
            let url = try #require(URL(string: text))
            #expect(origins.of(url) == ServerURL(originOf: url), "\(text)")
        }
    }
}
