import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// Sets one header on every request: the `User-Agent`, or a token.
struct HeaderMiddleware: ClientMiddleware {
    var name: HTTPField.Name
    var value: String

    /// `User-Agent: swaggerctl/<version>`.
    static var userAgent: HeaderMiddleware {
        HeaderMiddleware(name: .userAgent, value: "swaggerctl/\(SwaggerctlVersion.current)")
    }

    /// `token` as `use` says it goes: `Authorization: Bearer <token>`, `Authorization: Token <token>`,
    /// `X-API-Key: <token>`.
    static func token(_ token: String, as use: TokenUse) -> HeaderMiddleware {
        HeaderMiddleware(name: HTTPField.Name(use.header) ?? .authorization, value: use.value(token))
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[name] = value
        return try await next(request, body, baseURL)
    }
}
