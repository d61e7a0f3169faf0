import Foundation
import NIOCore
import NIOHTTP1
import SwaggerHTTP
import SwaggerModel
import Synchronization

/// A transport that answers as a test recorded, in the manner of gh's httpmock: each stub matches a method and a
/// path (without the query), and answers with its outcomes in turn, the last one again once they run out. Every
/// request is kept as it went on the wire; one that no stub matches fails as unreachable, naming itself, and is
/// listed in ``unmatched``.
package final class RecordedTransport: HTTPTransport {
    /// What a stub answers: a reply, or a failure below HTTP.
    package enum Outcome: Sendable {
        case reply(status: Int, headers: [(String, String)], body: Data)
        case failure(APIServiceError)

        /// `json` with `status`, as JSON.
        package static func json(_ json: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> Outcome {
            .reply(
                status: status, headers: [("Content-Type", "application/json")] + headers,
                body: Data(json.compactJSON.utf8))
        }

        /// `status` with an empty body.
        package static func status(_ status: Int, headers: [(String, String)] = []) -> Outcome {
            .reply(status: status, headers: headers, body: Data())
        }
    }

    private struct Stub {
        var method: String
        var path: String
        var outcomes: [Outcome]
        var answered = 0
    }

    private let state = Mutex<(stubs: [Stub], requests: [TransportRequest], unmatched: [String])>(([], [], []))
    private let journal: (@Sendable (String) -> Void)?

    /// A transport with no stubs yet; `journal` receives a line for each request: its method, path and query, the
    /// `Authorization` it carried, and its body.
    package init(journal: (@Sendable (String) -> Void)? = nil) {
        self.journal = journal
    }

    /// Answers `method` requests to `path` with `outcomes`, in turn; a later stub for the same request replaces it.
    package func register(_ method: String, _ path: String, _ outcomes: Outcome...) {
        precondition(!outcomes.isEmpty, "a stub answers with something")
        state.withLock { state in
            state.stubs.removeAll { $0.method == method && $0.path == path }
            state.stubs.append(Stub(method: method, path: path, outcomes: outcomes))
        }
    }

    /// Every request so far, in order.
    package var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// The requests no stub matched, as `METHOD path`.
    package var unmatched: [String] { state.withLock { $0.unmatched } }

    /// The line ``init(journal:)`` gives `request`.
    package static func line(_ request: TransportRequest) -> String {
        let target = request.url.path(percentEncoded: true) + (request.url.query.map { "?" + $0 } ?? "")
        let authorization = request.headers.first(name: "Authorization").map { " " + $0 } ?? ""
        let body = request.body.flatMap { $0.isEmpty ? nil : " " + String(decoding: $0, as: UTF8.self) } ?? ""
        return "\(request.method.rawValue) \(target)\(authorization)\(body)"
    }

    package func start(_ request: TransportRequest) -> TransportExchange {
        journal?(Self.line(request))
        let method = request.method.rawValue
        let path = request.url.path(percentEncoded: true)
        let outcome = state.withLock { state -> Outcome? in
            state.requests.append(request)
            guard let index = state.stubs.firstIndex(where: { $0.method == method && $0.path == path }) else {
                state.unmatched.append("\(method) \(path)")
                return nil
            }
            defer { state.stubs[index].answered += 1 }
            let outcomes = state.stubs[index].outcomes
            return outcomes[min(state.stubs[index].answered, outcomes.count - 1)]
        }
        switch outcome {
        case .reply(let status, let headers, let body)?:
            var head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: HTTPHeaders(headers))
            head.headers.add(name: "Content-Length", value: String(body.count))
            let answer = TransportAnswer(head: head, body: ByteBuffer(bytes: body))
            return TransportExchange { () async throws(APIServiceError) -> TransportAnswer in answer }
        case .failure(let error)?:
            return .failed(error)
        case nil:
            return .failed(.unreachable("nothing is recorded for \(method) \(path)"))
        }
    }

    package func shutdown() async {}
}
