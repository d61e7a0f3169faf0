import AsyncHTTPClient
import FoundationEssentials
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
import SwaggerModel

/// The generated client's transport: AsyncHTTPClient, with each request body sent whole and each answer read
/// whole, up to a limit, by a ``ResponseCollector`` on the event loop as its bytes arrive.
///
/// Every caller reads the whole answer before it looks at it, so a streamed body would only add layers: an
/// async sequence with its back-pressure between the loop and the task, and, in AsyncHTTPClient's async API, a
/// task and an actor of its own for cancellation, which run on Swift's cooperative pool and so start its threads.
/// The deadline bounds the whole exchange, from connecting to the answer's last byte: a server that drips its
/// body one byte a second runs into it as surely as one that never answers. ``Deadlines`` keeps it, as
/// AsyncHTTPClient's own deadline would, with one timer for all the service's requests.
///
/// A request body is sent as bytes: as a stream, AsyncHTTPClient (1.37) failed one to three requests in a hundred
/// with `remoteConnectionClosed` against a server that ends its answer by closing the connection before it has
/// seen the stream's end, although the whole answer had arrived.
struct HTTPClientTransport: ClientTransport {
    var client: HTTPClient
    /// The bound on each whole exchange.
    var deadlines: Deadlines<HTTPClient.Task<ResponseCollector.Answer>>
    /// The most of an answer's body that is read, as ``ResponseCollector`` applies it.
    var limit: Int

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var headers = HTTPHeaders()
        for field in request.headerFields {
            headers.add(name: field.name.canonicalName, value: field.value)
        }
        var sent: HTTPClient.Body?
        if let body { sent = .bytes(try await Data(whole: body, atMost: APIService.requestBodyLimit)) }
        let outgoing = try HTTPClient.Request(
            url: try Self.url(of: request, under: baseURL), method: HTTPMethod(rawValue: request.method.rawValue),
            headers: headers, body: sent)
        let answer = try await collect(outgoing)

        var fields = HTTPFields()
        for header in answer.head.headers {
            // A repeated field (Set-Cookie, say) is kept as often as it came.
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let response = HTTPResponse(
            status: .init(code: Int(answer.head.status.code), reasonPhrase: answer.head.status.reasonPhrase),
            headerFields: fields)
        switch request.method {
        case .head, .connect, .trace:
            return (response, nil)
        default:
            return (response, HTTPBody(answer.body.readableBytesView, length: .known(Int64(answer.body.readableBytes))))
        }
    }

    /// A request on its way: written as soon as a connection is free, its answer read on the event loop whether or
    /// not anyone awaits it yet.
    struct Exchange: Sendable {
        let task: HTTPClient.Task<ResponseCollector.Answer>
        let collector: ResponseCollector
        fileprivate let deadline: Deadlines<HTTPClient.Task<ResponseCollector.Answer>>.Ticket
    }

    /// Starts `request`. On the command's loop with a connection free, the request is written before this returns.
    func start(_ request: HTTPClient.Request) -> Exchange {
        let collector = ResponseCollector(limit: limit)
        let task = client.execute(request: request, delegate: collector)
        return Exchange(task: task, collector: collector, deadline: deadlines.watch(task))
    }

    /// Gives up a started exchange that will not be collected.
    func abandon(_ exchange: Exchange) {
        exchange.task.cancel()
        deadlines.release(exchange.deadline)
    }

    /// The answer to `request`, read whole, or to the limit for an error answer, within the deadline.
    func collect(_ request: HTTPClient.Request) async throws -> ResponseCollector.Answer {
        try await collect(start(request))
    }

    /// The answer of a started exchange, as ``collect(_:)-(HTTPClient.Request)`` reads it.
    func collect(_ exchange: Exchange) async throws -> ResponseCollector.Answer {
        defer { deadlines.release(exchange.deadline) }
        do {
            return try await withTaskCancellationHandler {
                try await exchange.task.futureResult.get()
            } onCancel: {
                exchange.task.cancel()
            }
        } catch ResponseCollector.Cut.cut {
            guard let cut = exchange.collector.cutAnswer else {
                preconditionFailure("an answer cut short keeps what was read")
            }
            return cut
        }
    }

    /// The request's path and query, appended to the base URL's path.
    ///
    /// The request's target is split at its first `?` rather than parsed as a URL reference: a path that begins
    /// with two slashes (Glewlwyd's `//api/oidc/token`) would be read as a host.
    static func url(of request: HTTPRequest, under baseURL: URL) throws -> String {
        let target = request.path ?? ""
        let path = target.prefix { $0 != "?" }
        let query = target.dropFirst(path.count + 1)
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { throw InvalidURL() }
        components.percentEncodedPath += path
        components.percentEncodedQuery = path.count < target.count ? String(query) : nil
        guard let url = components.url else { throw InvalidURL() }
        return url.absoluteString
    }

    struct InvalidURL: Error {}
}
