import DemoServer
import Foundation
import Hummingbird
import HummingbirdTesting
import SwaggerAPI
import Testing

@Suite(
    "HTTP rules: Accept, methods the document does not list, body size, and passwords bcrypt cannot hold",
    .timeLimit(.minutes(5)))
struct RouteRulesTests {
    @Test(
        "an Accept header that does not name JSON is disregarded: the answer is JSON, never a 500",
        arguments: ["text/html", "application/xml;q=0.9", "image/*", "nonsense;;,", ""])
    func acceptIsDisregarded(accept: String) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let token = try await client.accessToken()
            let response = try await client.execute(
                uri: "/api/User/User", method: .get, headers: [.authorization: "Bearer \(token)", .accept: accept])
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.isJSON)
        }
    }

    @Test(
        "a method the document does not list for a path answers 405 with Allow",
        arguments: [
            ("/api/User/User", HTTPRequest.Method.delete, "GET"), ("/api/User/User", .post, "GET"),
            ("/api/User/AdminLogin", .get, "POST"), ("/api/User/AdminLogin", .put, "POST"),
            ("/api/User/RefreshToken", .patch, "POST"), ("/api/User/Logout", .options, "POST"),
        ])
    func methodNotAllowed(path: String, method: HTTPRequest.Method, allow: String) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.execute(uri: path, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(try response.decode(Components.Schemas._Error.self).error == "method_not_allowed")
        }
    }

    @Test("a path the document does not list still answers 404")
    func unknownPath() async throws {
        let server = try await TestServer.make()
        try await server.run { (client) async throws in
            #expect(try await client.execute(uri: "/api/User/Nobody", method: .get).status == .notFound)
        }
    }

    @Test(
        "a body over 64 KiB answers 413, whether or not it says its length; 64 KiB itself is read",
        arguments: [(DemoServer.bodyLimit + 1, true), (DemoServer.bodyLimit + 1, false), (DemoServer.bodyLimit, true)])
    func bodyLimit(size: Int, declared: Bool) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if declared { headers[.contentLength] = String(size) }
            let response = try await client.execute(
                uri: "/api/User/AdminLogin", method: .post, headers: headers,
                body: ByteBuffer(repeating: UInt8(ascii: "a"), count: size))
            if size > DemoServer.bodyLimit {
                #expect(response.status == .contentTooLarge)
                #expect(try response.decode(Components.Schemas._Error.self).error == "payload_too_large")
            } else {
                #expect(response.status == .badRequest, "not JSON, but read: \(response.text)")
            }
        }
    }

    @Test(
        "only the exact password logs in: not one cut at a NUL, and not the first 72 bytes of a longer one",
        arguments: [
            ("demo-password\u{0}anything", AccountDirectory.demoPassword, false),
            (AccountDirectory.demoPassword + "\u{0}", AccountDirectory.demoPassword, false),
            (String(repeating: "p", count: 72), String(repeating: "p", count: 100), false),
            (String(repeating: "p", count: 72) + "x", String(repeating: "p", count: 72) + "y", false),
            (String(repeating: "p", count: 100), String(repeating: "p", count: 100), true),
            ("pässwörd\u{0}🔑", "pässwörd\u{0}🔑", true),
        ])
    func exactPasswords(attempt: String, actual: String, accepted: Bool) async throws {
        let seed = AccountDirectory.Seed(email: "long@example.com", password: actual)
        let server = try await TestServer.make(seeds: [seed])
        try await server.run { client in
            let email = actual == AccountDirectory.demoPassword ? AccountDirectory.demoEmail : "long@example.com"
            let response = try await client.login(email: email, password: attempt)
            #expect(response.status == (accepted ? .ok : .unauthorized), "\(response.text)")
        }
    }

    @Test("a profile seeded with explicit nulls is sent with those nulls, and leaves absent fields out")
    func nullsOnTheWire() async throws {
        let file = try AccountDirectoryTests.temporaryFile(
            contents: #"""
                [{"email": "nulls@example.com", "password": "pw",
                  "profile": {"id": 5, "name": null, "adress": null, "imageId": null, "team": null}}]
                """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let server = try await TestServer.make(seeds: try AccountDirectory.seeds(from: file))
        try await server.run { client in
            let token = try await client.accessToken(email: "nulls@example.com", password: "pw")
            let response = try await client.getUser(authorization: "Bearer \(token)")
            #expect(response.status == .ok)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            for name in ["name", "adress", "imageId", "team"] {
                #expect(object[name] is NSNull, "\(name) in \(response.text)")
            }
            #expect(object["id"] as? Int == 5)
            #expect(object["surname"] == nil, "absent stays absent: \(response.text)")
        }
    }
}
