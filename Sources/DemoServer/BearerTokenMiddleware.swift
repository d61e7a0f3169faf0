import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Hands the `Authorization: Bearer` token to the handler through a task-local value, and marks a 401 from a
/// bearer-protected operation with `WWW-Authenticate` (RFC 6750 §3). Each handler verifies the token in the
/// way its operation needs: the profile wants a live token, logout only a signature.
struct BearerTokenMiddleware: ServerMiddleware {
    @TaskLocal static var token: String?

    /// The operations whose credentials are in the body, not a bearer token.
    private static let unprotected: Set<String> = ["adminLogin", "refreshToken"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var token: String?
        if let header = request.headerFields[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst("bearer ".count))
        }
        var (response, responseBody) = try await Self.$token.withValue(token) {
            try await next(request, body, metadata)
        }
        if response.status == .unauthorized, !Self.unprotected.contains(operationID) {
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

/// Disregards the `Accept` header, as RFC 9110 §12.5.1 allows: every answer of this API is JSON, and a
/// client that asks for something else gets JSON rather than the runtime's bare 500.
struct AcceptIgnoringMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.accept] = nil
        return try await next(request, body, metadata)
    }
}
