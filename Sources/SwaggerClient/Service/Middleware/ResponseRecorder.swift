import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Reads each response body into memory, up to a limit, and keeps a copy of the response and its bytes.
///
/// The generated client decodes the body into the API's types, which checks it against the contract; the
/// copy lets `--format json` print the profile exactly as received, `null`s and unknown fields included, and
/// lets every failing status be classified from one place with its headers and body. The limit stops a rude
/// server from streaming without end.
actor ResponseRecorder: ClientMiddleware {
    static let defaultLimit = 1 << 20

    let limit: Int
    private(set) var response: HTTPResponse?
    private(set) var body: Data?

    init(limit: Int = ResponseRecorder.defaultLimit) {
        self.limit = limit
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        self.response = response
        guard let responseBody else {
            self.body = nil
            return (response, nil)
        }
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
        self.body = bytes
        return (response, HTTPBody(bytes))
    }
}
