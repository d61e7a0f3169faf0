import AsyncHTTPClient
import FoundationEssentials
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
import SwaggerModel

/// The generated client's transport: AsyncHTTPClient, with each request body sent as bytes.
///
/// swift-openapi-async-http-client hands AsyncHTTPClient every request body as an async stream. With a stream,
/// AsyncHTTPClient (`HTTPRequestStateMachine.receivedHTTPResponseEnd`, 1.37) fails the request with
/// `remoteConnectionClosed` when the response ends by the server closing the connection (no `Content-Length`,
/// no chunking) before it has seen the stream's end, even though every byte the `Content-Length` promised
/// was sent and the whole response arrived: one to three logins in a hundred, against such a server. A body
/// of bytes is written whole, end included, before any answer can come. This API's request bodies are small
/// JSON, so collecting them first costs nothing.
struct HTTPClientTransport: ClientTransport {
    var client: HTTPClient
    /// AsyncHTTPClient's deadline, which ends when the response head has arrived; ``DeadlineMiddleware``
    /// bounds the body.
    var timeout: TimeAmount

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var outgoing = HTTPClientRequest(url: try Self.url(of: request, under: baseURL))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.canonicalName, value: field.value)
        }
        if let body {
            outgoing.body = .bytes(
                ByteBuffer(bytes: try await Data(whole: body, atMost: APIService.requestBodyLimit)))
        }
        let incoming = try await client.execute(outgoing, timeout: timeout)

        var fields = HTTPFields()
        for header in incoming.headers {
            // A repeated field (Set-Cookie, say) is kept as often as it came.
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let response = HTTPResponse(
            status: .init(code: Int(incoming.status.code), reasonPhrase: incoming.status.reasonPhrase),
            headerFields: fields)
        switch request.method {
        case .head, .connect, .trace:
            return (response, nil)
        default:
            let length = fields[.contentLength].flatMap(Int64.init).map(HTTPBody.Length.known) ?? .unknown
            let body = HTTPBody(incoming.body.map(\.readableBytesView), length: length, iterationBehavior: .single)
            return (response, body)
        }
    }

    /// The request's path and query, appended to the base URL's path.
    private static func url(of request: HTTPRequest, under baseURL: URL) throws -> String {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let target = URLComponents(string: request.path ?? "")
        else { throw InvalidURL() }
        components.percentEncodedPath += target.percentEncodedPath
        components.percentEncodedQuery = target.percentEncodedQuery
        guard let url = components.url else { throw InvalidURL() }
        return url.absoluteString
    }

    struct InvalidURL: Error {}
}
