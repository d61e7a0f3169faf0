import AsyncHTTPClient
import NIOCore

/// The service's transport: AsyncHTTPClient, with each request body sent whole and each answer read whole, up to a
/// limit, by a ``ResponseCollector`` on the event loop as its bytes arrive.
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
struct HTTPClientTransport {
    var client: HTTPClient
    /// The bound on each whole exchange.
    var deadlines: Deadlines<HTTPClient.Task<ResponseCollector.Answer>>
    /// The most of an answer's body that is read, as ``ResponseCollector`` applies it.
    var limit: Int

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

    /// The answer of a started exchange, read whole, or to the limit for an error answer, within the deadline.
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
}
