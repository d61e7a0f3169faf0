import SwaggerModel

/// A request that has been started and whose answer is read when it is awaited: `api --paginate` asks for the
/// next page before it checks and shows this one, so that the server prepares it meanwhile.
package struct PendingResponse: Sendable {
    private let answer: @Sendable () async throws(APIServiceError) -> APIResponse
    private let abandon: @Sendable () -> Void

    /// A request whose answer `answer` reads; `abandon` stops it when no one will await it.
    package init(
        answer: @escaping @Sendable () async throws(APIServiceError) -> APIResponse,
        abandon: @escaping @Sendable () -> Void = {}
    ) {
        self.answer = answer
        self.abandon = abandon
    }

    /// The answer, waited for; awaited once.
    package func response() async throws(APIServiceError) -> APIResponse {
        try await answer()
    }

    /// Gives up the request, which no one will await: an answer still coming is not read.
    package func cancel() {
        abandon()
    }
}

extension PendingResponse {
    /// A request refused before it was sent.
    static func failed(_ error: APIServiceError) -> PendingResponse {
        PendingResponse { () async throws(APIServiceError) -> APIResponse in throw error }
    }
}
