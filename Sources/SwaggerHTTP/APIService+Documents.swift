import FoundationEssentials
import HTTPTypes
import SwaggerModel

extension APIService {
    /// The largest discovery document read: OpenAPI documents of large APIs run to megabytes.
    static let documentLimit = 16 << 20

    /// Reads a document that needs no credentials, for discovery.
    /// - Returns: The body of a successful answer; `nil` for any other status, which means it is not there.
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    package func document(at url: URL) async throws(APIServiceError) -> Data? {
        var request = Self.request(.get)
        request.headerFields[.accept] = "application/json, application/yaml;q=0.9, */*;q=0.1"
        let recorder = ResponseRecorder(secrets: secretBook)
        let response = try await exchange(
            request, body: nil, to: url, operation: .document, recorder: recorder, limit: Self.documentLimit,
            secrets: [])
        guard (200..<300).contains(response.status.code) else { return nil }
        return recorder.body
    }
}
