import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import SwaggerModel
import Synchronization

/// Keeps a copy of each response and its body, which the transport has read whole, to its limit.
///
/// The generated client decodes the body into the API's types, which checks it against the contract; the
/// copy lets `--format json` print the profile exactly as received, `null`s and unknown fields included, and
/// lets every failing status be classified from one place with its headers and body.
///
/// One recorder serves one request: its caller reads what it kept once the request is over.
final class ResponseRecorder: ClientMiddleware {
    private struct Recorded {
        var response: HTTPResponse?
        var body: Data?
    }

    private let recorded = Mutex(Recorded())
    /// The command's secrets, hidden in the server's words that ``failure(_:)`` quotes.
    let secrets: SecretBook
    /// For a login or a refresh, the answer's token members as the server's description names them: a
    /// successful answer's tokens join the secrets as soon as it is read.
    let tokenFields: TokenFields?

    init(secrets: SecretBook, tokenFields: TokenFields? = nil) {
        self.secrets = secrets
        self.tokenFields = tokenFields
    }

    /// The response of the attempt that counts: the last.
    var response: HTTPResponse? { recorded.withLock { $0.response } }
    /// Its body, read whole (or, for an error, up to the limit).
    var body: Data? { recorded.withLock { $0.body } }

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
        let bytes = try await Data(whole: responseBody, atMost: .max)
        if let tokenFields, (200..<300).contains(response.status.code) {
            secrets.learnTokens(in: bytes, headers: response.headerFields, described: tokenFields)
        }
        recorded.withLock { $0.body = bytes }
        return (response, HTTPBody(bytes))
    }
}
