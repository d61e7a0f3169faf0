import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import SwaggerModel
import Synchronization

/// Reads one answer whole, on the event loop as its bytes arrive, to at most `limit` bytes of body, so that a
/// rude server cannot stream without end.
///
/// A success past the limit fails as a broken contract: it is no answer a command can use. An error answer is
/// classified by its status, and its body only adds the server's words, so one past the limit is cut there and
/// the rest is never read: the request fails with ``Cut``, and ``cutAnswer`` holds what was read.
final class ResponseCollector: HTTPClientResponseDelegate {
    /// The limit of an answer to the API's own requests and the other kinds' logins.
    static let defaultLimit = 1 << 20

    typealias Answer = TransportAnswer

    /// Ends the reading of an error answer at the limit.
    enum Cut: Error {
        case cut
    }

    private enum State {
        case waitingForHead
        case reading(Answer)
        case cut(Answer)
        case finished
    }

    let limit: Int
    private let state = Mutex(State.waitingForHead)

    init(limit: Int) {
        self.limit = limit
    }

    /// The error answer that was cut at the limit, once the request has failed with ``Cut``.
    var cutAnswer: Answer? {
        state.withLock { state in
            guard case .cut(let answer) = state else { return nil }
            return answer
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0 = .reading(Answer(head: head, body: ByteBuffer())) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let refusal = state.withLock { state -> (any Error)? in
            guard case .reading(var answer) = state else { preconditionFailure("a body part before the head") }
            // Left in the state, the answer's buffer would be copied on the write below.
            state = .finished
            let room = limit - answer.body.readableBytes
            guard buffer.readableBytes > room else {
                answer.body.writeImmutableBuffer(buffer)
                state = .reading(answer)
                return nil
            }
            guard !(200..<300).contains(answer.head.status.code) else {
                return APIServiceError.contractViolation("the response is larger than \(limit / 1024) KiB")
            }
            answer.body.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: room) ?? ByteBuffer())
            state = .cut(answer)
            return Cut.cut
        }
        guard let refusal else { return task.eventLoop.makeSucceededVoidFuture() }
        return task.eventLoop.makeFailedFuture(refusal)
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        state.withLock { state in
            guard case .reading(let answer) = state else { preconditionFailure("the end of an answer before its head") }
            state = .finished
            return answer
        }
    }
}
