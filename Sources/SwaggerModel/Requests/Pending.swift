/// A request that has been started and whose answer is read when it is awaited: `api --paginate` asks for the
/// next page before it checks and shows this one, so that the server prepares it meanwhile.
package typealias PendingResponse = Pending<APIResponse>

/// Something started whose `Answer` is read when it is awaited, once, or given up when no one will await it.
package struct Pending<Answer: Sendable>: Sendable {
    private let answer: @Sendable () async throws(APIServiceError) -> Answer
    private let abandon: @Sendable () -> Void

    /// A request whose answer `answer` reads; `abandon` stops it when no one will await it.
    package init(
        answer: @escaping @Sendable () async throws(APIServiceError) -> Answer,
        abandon: @escaping @Sendable () -> Void = {}
    ) {
        self.answer = answer
        self.abandon = abandon
    }

    /// A request refused before it was sent.
    package static func failed(_ error: APIServiceError) -> Pending {
        Pending { () async throws(APIServiceError) -> Answer in throw error }
    }

    /// The answer, waited for; awaited once.
    package func response() async throws(APIServiceError) -> Answer {
        try await answer()
    }

    /// Gives up the request, which no one will await: an answer still coming is not read.
    package func cancel() {
        abandon()
    }
}
