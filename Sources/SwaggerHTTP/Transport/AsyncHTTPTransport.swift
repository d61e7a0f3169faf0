import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import SwaggerModel

/// The command's transport: AsyncHTTPClient, with each request body sent whole and each answer read whole, up to a
/// limit, by a ``ResponseCollector`` on the event loop as its bytes arrive.
///
/// Every caller reads the whole answer before it looks at it, so a streamed body would only add layers: an
/// async sequence with its back-pressure between the loop and the task, and, in AsyncHTTPClient's async API, a
/// task and an actor of its own for cancellation, which run on Swift's cooperative pool and so start its threads.
/// The deadline bounds the whole exchange, from connecting to the answer's last byte: a server that drips its
/// body one byte a second runs into it as surely as one that never answers. ``Deadlines`` keeps it, as
/// AsyncHTTPClient's own deadline would, with one timer for all the transport's requests.
///
/// A request body is sent as bytes: as a stream, AsyncHTTPClient (1.37) failed one to three requests in a hundred
/// with `remoteConnectionClosed` against a server that ends its answer by closing the connection before it has
/// seen the stream's end, although the whole answer had arrived.
package struct AsyncHTTPTransport: HTTPTransport {
    let timeout: Duration
    private let pool = ClientPool()
    private let deadlines: Deadlines<HTTPClient.Task<TransportAnswer>>

    /// A transport that makes no connection until its first request, and bounds each exchange by `timeout`.
    package init(timeout: Duration) {
        self.timeout = timeout
        deadlines = Deadlines(timeout: TimeAmount(timeout), on: CommandLoop.group.next()) {
            $0.fail(reason: HTTPClientError.deadlineExceeded)
        }
    }

    /// A request on its way: written as soon as a connection is free, its answer read on the event loop whether or
    /// not anyone awaits it yet.
    private struct Started: Sendable {
        let task: HTTPClient.Task<TransportAnswer>
        let collector: ResponseCollector
        let deadline: Deadlines<HTTPClient.Task<TransportAnswer>>.Ticket
    }

    package func start(_ request: TransportRequest) -> TransportExchange {
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: request.url, method: request.method, headers: request.headers,
                body: request.body.map { .bytes($0) })
        } catch {
            return .failed(Self.classify(error))
        }
        let client = pool.client(through: request.proxy, timeout: timeout, trust: request.trust)
        let first = start(outgoing, on: client, limit: request.limit)
        return TransportExchange(
            answer: { () async throws(APIServiceError) -> TransportAnswer in
                let answer: TransportAnswer
                do {
                    answer = try await collect(first)
                } catch let error as HTTPClientError where error == .remoteConnectionClosed && request.resendable {
                    // A kept-alive connection that the server closed as the request went out, as servers do to idle
                    // connections (uvicorn after 5 s): sent once more, at once, on a new connection, as curl does.
                    do {
                        answer = try await collect(start(outgoing, on: client, limit: request.limit))
                    } catch {
                        throw await failure(error, of: request)
                    }
                } catch {
                    throw await failure(error, of: request)
                }
                return answer
            },
            abandon: {
                first.task.cancel()
                deadlines.release(first.deadline)
            })
    }

    package func shutdown() async {
        await pool.shutdown()
    }

    /// Starts `request`. On the command's loop with a connection free, the request is written before this returns.
    private func start(_ request: HTTPClient.Request, on client: HTTPClient, limit: Int) -> Started {
        let collector = ResponseCollector(limit: limit)
        let task = client.execute(request: request, delegate: collector)
        return Started(task: task, collector: collector, deadline: deadlines.watch(task))
    }

    /// The answer of a started exchange, read whole, or to the limit for an error answer, within the deadline.
    private func collect(_ started: Started) async throws -> TransportAnswer {
        defer { deadlines.release(started.deadline) }
        do {
            return try await withTaskCancellationHandler {
                try await started.task.futureResult.get()
            } onCancel: {
                started.task.cancel()
            }
        } catch ResponseCollector.Cut.cut {
            guard let cut = started.collector.cutAnswer else {
                preconditionFailure("an answer cut short keeps what was read")
            }
            return cut
        }
    }

    /// What `error` was, in the words of an ``APIServiceError``: through a proxy, the proxy's failure where the
    /// connection could not be made; an untrusted certificate refined into its reason with a second handshake.
    private func failure(_ error: any Error, of request: TransportRequest) async -> APIServiceError {
        var failure = Self.classify(error)
        if let proxy = request.proxy { failure = Self.atProxy(failure, proxy) }
        guard case .tls = failure else { return failure }
        // A trust store that cannot be loaded fails every handshake before it starts; say which one.
        if let store = request.trust.firstUnloadable() { return .tls(.unloadableTrustStore(store)) }
        guard case .tls(.untrusted) = failure else { return failure }
        return .tls(
            await TLSDiagnosis.reason(for: request.origin, through: request.proxy, within: timeout, now: Date()))
    }

    /// `failure` as it happened through `proxy`: the connection goes to the proxy, so a connection that could
    /// not be made is the proxy's failure.
    static func atProxy(_ failure: APIServiceError, _ proxy: ProxySettings.Proxy) -> APIServiceError {
        switch failure {
        case .unreachable(let detail): .proxyFailed(proxy: proxy.description, .unreachable(detail))
        case .proxyFailed(_, let reason): .proxyFailed(proxy: proxy.description, reason)
        default: failure
        }
    }
}
