import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel
import Synchronization

/// Reads each response body into memory, up to a limit, and keeps a copy of the response and its bytes.
///
/// The generated client decodes the body into the API's types, which checks it against the contract; the
/// copy lets `--format json` print the profile exactly as received, `null`s and unknown fields included, and
/// lets every failing status be classified from one place with its headers and body. The limit stops a rude
/// server from streaming without end.
///
/// One recorder serves one request: its caller reads what it kept once the request is over.
final class ResponseRecorder: ClientMiddleware {
    static let defaultLimit = 1 << 20

    private struct Recorded {
        var response: HTTPResponse?
        var body: Data?
        var redactor: Redactor?
    }

    let limit: Int
    private let recorded = Mutex(Recorded())

    init(limit: Int = ResponseRecorder.defaultLimit) {
        self.limit = limit
    }

    /// The response of the attempt that counts: the last.
    var response: HTTPResponse? { recorded.withLock { $0.response } }
    /// Its body, read whole (or, for an error, up to the limit).
    var body: Data? { recorded.withLock { $0.body } }
    /// What hides the exchange's secrets in the server's words that ``failure(_:)`` quotes.
    var redactor: Redactor? {
        get { recorded.withLock { $0.redactor } }
        set { recorded.withLock { $0.redactor = newValue } }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        recorded.withLock {
            $0.response = response
            $0.body = nil
        }
        guard let responseBody else { return (response, nil) }
        var bytes = Data()
        for try await chunk in responseBody {
            guard bytes.count + chunk.count <= limit else {
                // An error answer is classified by its status; its body only adds the server's words, so a
                // huge one is cut short rather than turned into a contract violation.
                guard (200..<300).contains(response.status.code) else {
                    bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
                    break
                }
                throw APIServiceError.contractViolation("the response is larger than \(limit / 1024) KiB")
            }
            bytes.append(contentsOf: chunk)
        }
        recorded.withLock { $0.body = bytes }
        return (response, HTTPBody(bytes))
    }
}
