import FoundationEssentials

extension SessionController {
    /// How `swaggerctl api` ended, once every response it fetched has been handed over.
    public struct RequestOutcome: Sendable, Hashable {
        /// The last response's status.
        public var status: Int
        /// How many responses were handed over: one, or one for each page.
        public var pages: Int
        /// Why `--paginate` stopped early, when it did: ``Pagination/Next/limitReached(next:)``,
        /// ``Pagination/Next/offServer(_:)`` or ``Pagination/Next/loop(_:)``.
        public var stoppedEarly: Pagination.Next?
        /// The server the request went to.
        public var server: String
        /// Whether the token came from `SWAGGERCTL_TOKEN`, which cannot be refreshed.
        public var usedEnvironmentToken: Bool
    }

    /// Sends the person's own request with the session's token: refreshed first when it has expired, and once
    /// more, with the request repeated, on a 401. With `pageLimit`, follows the next page until the last, or
    /// until that many pages.
    /// - Parameters:
    ///   - request: What to send; with `pageLimit`, a `GET`.
    ///   - selection: The server and session to use.
    ///   - pageLimit: The most pages to fetch, for `--paginate`; `nil` for one request.
    ///   - receive: Receives each response as it arrives, before the next page is asked for.
    /// - Returns: How it ended.
    /// - Throws: ``SwaggerError`` when no session can be used, or a request has no response; what `receive`
    ///   throws.
    public func send(
        _ request: APIRequest, with selection: SessionSelection, pageLimit: Int? = nil,
        receive: (APIResponse) throws(SwaggerError) -> Void
    ) async throws(SwaggerError) -> RequestOutcome {
        let source = try source(of: selection)
        try requireProtected(source)
        var coordinator = MainCoordinator()
        var token = try await accessToken(
            from: handle(coordinator.start(source, for: .request, now: Date()), &coordinator))
        var pagination = pageLimit.map { Pagination(first: request.url, server: selection.server, limit: $0) }
        var outcome = RequestOutcome(
            status: 0, pages: 0, server: selection.server.string,
            usedEnvironmentToken: selection.environmentToken != nil)
        var url = request.url
        while true {
            let response: APIResponse
            do throws(APIServiceError) {
                response = try await service.send(request, to: url, accessToken: token)
            } catch {
                throw message(for: coordinator.requestFailed(error))
            }
            switch coordinator.responseReceived(status: response.status) {
            case .lockForRefresh(let account):
                token = try await accessToken(from: refreshUnderLock(account, &coordinator))
                continue
            case .answered:
                break
            }
            outcome.status = response.status
            outcome.pages += 1
            try receive(response)
            guard response.isSuccess, var following = pagination else { return outcome }
            let next = following.received(url, link: response.header("Link"), body: response.body)
            pagination = following
            switch next {
            case .fetch(let nextURL):
                url = nextURL
                guard case .send(let nextToken) = coordinator.nextRequest() else {
                    preconditionFailure("a request flow sends its next request")
                }
                token = nextToken
            case .complete:
                return outcome
            case .limitReached, .offServer, .loop:
                outcome.stoppedEarly = next
                return outcome
            }
        }
    }

    private func accessToken(from outcome: Outcome) -> String {
        guard case .send(let token) = outcome else { preconditionFailure("a request flow ends with a token to send") }
        return token
    }
}
