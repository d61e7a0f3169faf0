import DemoServer
import Hummingbird
import SwaggerAPI
import Testing

@Suite("Malformed login requests", .timeLimit(.minutes(5)))
struct MalformedRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var contentType: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "not JSON", body: "{oops", contentType: "application/json"),
        Case(
            name: "JSON without password",
            body: #"{"email":"demo@example.com","appId":"swaggerctl-demo"}"#,
            contentType: "application/json"),
        Case(
            name: "JSON sent as text/plain",
            body: #"{"email":"demo@example.com","password":"demo-password","appId":"swaggerctl-demo"}"#,
            contentType: "text/plain"),
        Case(name: "empty body", body: "", contentType: "application/json"),
    ]

    @Test("answers 400 with a JSON error", arguments: cases)
    func answersBadRequest(_ request: Case) async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.postLogin(body: request.body, contentType: request.contentType)
            #expect(response.status == .badRequest, "body: \(response.text)")
            #expect(response.isJSON)
            let body = try response.decode(Components.Schemas._Error.self)
            #expect(body.error == "bad_request")
        }
    }
}
