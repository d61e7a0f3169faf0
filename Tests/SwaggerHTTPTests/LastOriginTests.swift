import Foundation
import SwaggerModel
import Testing

@testable import SwaggerHTTP

@Suite("LastOrigin: the origin of each request, kept from the one before when they share it", .timeLimit(.minutes(5)))
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
