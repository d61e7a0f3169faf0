import FoundationEssentials
import SessionMachine
import SwaggerHTTP
import SwaggerModel

extension SessionController {
    /// How `swaggerctl api` ended, once every response it fetched has been handed over.
    package struct RequestOutcome: Sendable, Hashable {
        /// The last response's status.
        package var status: Int
        /// How many responses were handed over: one, or one for each page.
        package var pages: Int
        /// Why `--paginate` stopped early, when it did: ``Pagination/Next/limitReached(next:)``,
        /// ``Pagination/Next/offServer(_:)``, ``Pagination/Next/loop(_:)`` or
        /// ``Pagination/Next/undetermined(members:)``.
        package var stoppedEarly: Pagination.Next?
        package var server: ServerURL
        /// The request's method, which the line for a failure names.
        package var method: String
        /// Whether the token came from `SWAGGERCTL_TOKEN`, which cannot be refreshed.
        package var usedEnvironmentToken: Bool
    }

    /// The pages `--paginate` follows: every one, or at most `limit`.
    package struct Paging: Sendable, Hashable {
        package var limit: Int?

        package init(limit: Int? = nil) {
            self.limit = limit
        }
    }

    /// Sends the person's own request with the session's token: refreshed first when it has expired, and once
    /// more, with the request repeated, on a 401. With `paging`, follows the next page until the last, or until the
    /// limit, as the server's description names its page parameter.
    ///
    /// `paging` is for `--paginate`, and `nil` for one request; with it, `request` is a `GET`. A redirect is
    /// followed as ``Redirect`` decides: on the server's origin always, elsewhere only with `elsewhere`, and without
    /// the token. `receive` gets each response as it arrives; the next page has been asked for by then, so that the
    /// server prepares it while this one is shown, and is given up when `receive` throws.
    /// - Throws: `SwaggerError` when no session can be used, or a request has no response; what `receive`
    ///   throws.
    package func send(
        _ request: APIRequest, with selection: SessionSelection, paging: Paging? = nil, elsewhere: Bool = false,
        receive: (APIResponse) throws(SwaggerError) -> Void
    ) async throws(SwaggerError) -> RequestOutcome {
        // Refused before the session is read: the request was built to stay on the server's origin, and this is the
        // place that makes sure of it.
        guard selection.server.isSameOrigin(request.url) else {
            throw APIRequest.elsewhere(request.url, server: selection.server)
        }
        var coordinator = MainCoordinator(purpose: RequestPurpose())
        let start = coordinator.start(
            try source(of: selection), now: now(), plainHTTP: configuration.plainHTTP)
        var step = try await settle(start, &coordinator)
        var pagination = paging.map { paging in
            Pagination(
                first: request.url, server: selection.server, limit: paging.limit,
                pageParameter: selection.serverDescription?.paging?.page)
        }
        var outcome = RequestOutcome(
            status: 0, pages: 0, server: selection.server, method: request.method,
            usedEnvironmentToken: selection.environmentToken != nil)
        var url = request.url
        // What is sent next: a redirect may change it.
        var current = request
        var hops = 0
        // The one rule for the token: it goes with a request to the session's origin, and with no other, wherever
        // the URL came from (the person, the document, a redirect or a page).
        func token(to url: URL, _ accessToken: String) -> String? {
            selection.server.isSameOrigin(url) ? accessToken : nil
        }
        // Once, not for every page: a description made from a preset is built each time it is asked for.
        let use = selection.tokenUse
        let service = service(for: selection.record, entry: selection.entry)
        // The last response, which stands as the answer when a refused token cannot be renewed.
        var refused: APIResponse?
        // The next page, asked for as soon as this one arrives, so that the server prepares it while this one is read
        // and shown: a page waited for costs the server's time and this process's one after the other.
        var upcoming: (url: URL, accessToken: String, response: PendingResponse)?
        defer { upcoming?.response.cancel() }
        while true {
            let response: APIResponse
            switch step {
            case .send(let accessToken):
                let pending =
                    upcoming.take()?.response
                    ?? service.start(current, to: url, accessToken: token(to: url, accessToken), as: use)
                do throws(APIServiceError) {
                    response = try await pending.response()
                } catch {
                    throw message(for: coordinator.requestFailed(error))
                }
                // Another origin's 401 says nothing of this session's token, which it never saw.
                if token(to: url, accessToken) != nil,
                    case .lockForRefresh(let account) = coordinator.responseReceived(status: response.status)
                {
                    refused = response
                    step = try await underLock(account, &coordinator)
                    continue
                }
                switch Redirect.decide(
                    status: response.status, location: response.header("Location"), from: url, method: current.method,
                    server: selection.server, elsewhere: elsewhere, hops: hops)
                {
                case .follow(let next, let method, let keepsBody, let sameOrigin):
                    hops += 1
                    url = next
                    current.method = method
                    if !keepsBody {
                        current.body = nil
                        current.headers.removeAll { $0.name.lowercased() == "content-type" }
                    }
                    // A cookie, like the token, is the server's.
                    if !sameOrigin { current.headers.removeAll { $0.name.lowercased() == "cookie" } }
                    step = .send(accessToken: coordinator.nextRequest())
                    continue
                case .tooMany:
                    throw SwaggerError(
                        .server,
                        "\(request.method) \(url.pathAndQuery.prefix(40)) was redirected \(hops) times; stopped.")
                case .stand:
                    break
                }
            case .keepAnswer:
                guard let refused else { return outcome }
                response = refused
            }
            // Where the next page is, decided before this one is shown: a page that repeats the last is not.
            var next: Pagination.Next?
            if response.isSuccess {
                let link = response.header("Link")
                if let guess = pagination?.upcoming(after: url, link: link, body: response.body) {
                    let accessToken = coordinator.nextRequest()
                    upcoming = (
                        guess, accessToken,
                        service.start(current, to: guess, accessToken: token(to: guess, accessToken), as: use)
                    )
                }
                // Mutated in place: a copy would share the set of pages fetched, and the insert would then copy
                // all of it, at every page.
                next = pagination?.received(url, link: link, body: response.body)
            }
            if case .repeated? = next {
                outcome.stoppedEarly = next
                return outcome
            }
            if case .fetch(let nextURL)? = next {
                url = nextURL
                // The coordinator gave the next request its token when the page was asked for early.
                let accessToken = upcoming?.accessToken ?? coordinator.nextRequest()
                step = .send(accessToken: accessToken)
                if upcoming?.url != nextURL {
                    upcoming?.response.cancel()
                    upcoming = (
                        nextURL, accessToken,
                        service.start(current, to: nextURL, accessToken: token(to: nextURL, accessToken), as: use)
                    )
                }
            }
            outcome.status = response.status
            outcome.pages += 1
            try receive(response)
            switch next {
            case nil, .complete?:
                return outcome
            case .fetch?:
                continue
            case .limitReached?, .offServer?, .loop?, .undetermined?, .repeated?:
                outcome.stoppedEarly = next
                return outcome
            }
        }
    }
}
