import Foundation
import HTTPTypes
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
