import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Verifies the `Authorization: Bearer` token and makes its subject available to the handler through a
/// task-local value. A request without a valid token runs with no subject, and the handler answers 401.
struct BearerTokenMiddleware: ServerMiddleware {
    @TaskLocal static var subject: String?

    let issuer: TokenIssuer

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var subject: String?
        if let header = request.headerFields[.authorization], header.lowercased().hasPrefix("bearer ") {
            subject = await issuer.subject(of: String(header.dropFirst("bearer ".count)))
        }
        var (response, responseBody) = try await Self.$subject.withValue(subject) {
            try await next(request, body, metadata)
        }
        if response.status == .unauthorized, operationID != "adminLogin" {
            response.headerFields[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        }
        return (response, responseBody)
    }
}

/// Answers 400 with a JSON error when a request cannot be decoded, instead of the runtime's bare 500.
///
/// A `ServerError` with no operation input means the failure happened while parsing the request, before
/// any handler ran: that is the client's fault.
struct MalformedRequestMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch let error as ServerError where error.operationInput == nil {
            let message = #"{"error":"bad_request","message":"The request body is not valid JSON for this operation."}"#
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return (HTTPResponse(status: .badRequest, headerFields: headers), HTTPBody(message))
        }
    }
}
