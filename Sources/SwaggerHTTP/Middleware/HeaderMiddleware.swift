import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel

/// Sets one header on every request: the `User-Agent`, or the bearer token.
struct HeaderMiddleware: ClientMiddleware {
    var name: HTTPField.Name
    var value: String

    /// `User-Agent: swaggerctl/<version>`.
    static var userAgent: HeaderMiddleware {
        HeaderMiddleware(name: .userAgent, value: "swaggerctl/\(SwaggerctlVersion.current)")
    }

    /// `Authorization: Bearer <token>`.
    static func bearer(_ token: String) -> HeaderMiddleware {
        HeaderMiddleware(name: .authorization, value: "Bearer \(token)")
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
