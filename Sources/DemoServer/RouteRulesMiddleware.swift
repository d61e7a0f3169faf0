import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import SwaggerAPI

/// The paths and methods that the OpenAPI document defines, recorded from the generated handlers'
/// registration, so that the table can never drift from the document.
struct RouteTable: Sendable {
    private(set) var methods: [String: Set<HTTPRequest.Method>] = [:]

    /// The routes that `api` registers under `serverURL`.
    static func of(_ api: some APIProtocol, serverURL: URL) throws -> RouteTable {
        let recorder = Recorder()
        try api.registerHandlers(on: recorder, serverURL: serverURL)
        return recorder.table
    }

    private final class Recorder: ServerTransport, @unchecked Sendable {
        // Filled once, synchronously, by `registerHandlers` before the table is read.
        var table = RouteTable()

        func register(
            _ handler:
                @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                    HTTPResponse, HTTPBody?
                ),
            method: HTTPRequest.Method, path: String
        ) throws {
            table.methods[path, default: []].insert(method)
        }
    }
}

/// Answers a method that the document does not define for a path it does define with 405 and an `Allow`
/// header (RFC 9110 §15.5.6), instead of the router's 404; and refuses a request body over `bodyLimit`
/// with 413 (RFC 9110 §15.5.14) before any handler reads it.
struct RouteRulesMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable
    let bodyLimit: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let allowed = routes.methods[request.uri.path], !allowed.contains(request.method) {
            let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            var response = Self.error(
                .methodNotAllowed, "method_not_allowed", "This path accepts only \(names).")
            response.headers[.allow] = names
            return response
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > bodyLimit {
            return tooLarge
        }
        var request = request
        do {
            // A body without Content-Length (chunked) is cut off at the limit as it arrives.
            _ = try await request.collectBody(upTo: bodyLimit)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            return tooLarge
        }
        return try await next(request, context)
    }

    private var tooLarge: Response {
        Self.error(
            .contentTooLarge, "payload_too_large", "The request body is larger than \(bodyLimit / 1024) KiB.")
    }

    /// A JSON error body in the document's `Error` shape.
    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(Components.Schemas._Error(error: code, message: message))) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
