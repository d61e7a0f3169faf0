import FoundationEssentials
import RequestMachine
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel

extension SessionController {
    /// How `swaggerctl api` ended, once every response it fetched has been handed over.
    package typealias RequestOutcome = RequestCoordinator.Outcome

    /// `--paginate`'s settings: every page or at most `limit`, and how many on their way at once.
    package typealias PageWalk = RequestCoordinator.PageWalk

    /// Sends the person's own request with the session's token, as `RequestCoordinator` decides: refreshed first
    /// when it has expired, and once more, with the request repeated, on a 401; redirects followed on the server's
    /// origin with the token, elsewhere only with `elsewhere` and without it; with `paging`, every page of the list,
    /// or up to its limit. The controller performs each action and reports its outcome; it decides nothing.
    ///
    /// `receive` gets each response in order as it is handed over; the next pages have been asked for by then, and
    /// are given up when `receive` throws.
    /// - Throws: `SwaggerError` when no session can be used, or a request has no response; what `receive`
    ///   throws.
    package func send(
        _ request: APIRequest, with selection: SessionSelection, paging: PageWalk? = nil, crossOrigin: Bool = false,
        receive: (APIResponse) throws(SwaggerError) -> Void
    ) async throws(SwaggerError) -> RequestOutcome {
        var paging = paging
        paging?.described = selection.serverDescription?.paging
        var machine = RequestCoordinator(
            .init(
                url: request.url, method: request.method, server: selection.server, crossOrigin: crossOrigin,
                paging: paging))
        // Once, not for every page: a description made from a preset is built each time it is asked for.
        let use = selection.tokenUse
        // Made once the token is read: a session bound to a DPoP key proves its requests with the key its tokens were
        // read with.
        var service: APIService?
        // However the walk ends, by a failure or by `receive` throwing, the requests still out are given up.
        defer { for answer in machine.stopped() { answer.cancel() } }
        // The requests answered, let go only once the next one is written: freeing a request's client task, buffers
        // and closures, a few thousand instructions, would otherwise come between a page's arrival and the request
        // for the next.
        var answered: [PendingResponse] = []
        var action = machine.start(try source(of: selection), now: now(), plainHTTP: configuration.plainHTTP)
        var lock: RefreshLock?
        while true {
            if !action.keepsLock { lock = nil }
            switch action {
            case .settle(let work):
                action = machine.settled(try await perform(work, holding: &lock), now: now())
            case .endSession(let end):
                throw await endSession(end, releasing: lock.take())
            case .send(let outgoing):
                let sending =
                    service ?? self.service(for: selection.record, entry: selection.entry).bound(to: outgoing.binding)
                service = sending
                let answer = sending.start(
                    request.sent(as: outgoing), to: outgoing.url, accessToken: outgoing.accessToken, as: use)
                answered.removeAll(keepingCapacity: true)
                action = machine.sent(answer)
            case .await(_, let pending):
                do throws(APIServiceError) {
                    action = machine.received(try await pending.response())
                } catch {
                    action = machine.failed(error)
                }
                answered.append(pending)
            case .cancel(_, let pending):
                pending.cancel()
                action = machine.cancelled()
            case .deliver(let response):
                try receive(response)
                action = machine.delivered()
            case .finish(let outcome):
                return outcome
            case .fail(let failure):
                throw message(for: failure, on: selection.server)
            }
        }
    }

    private func message(for failure: RequestCoordinator.Failure, on server: ServerURL) -> SwaggerError {
        switch failure {
        case .session(let failure):
            message(for: failure)
        case .offOrigin(let url):
            APIRequest.offOrigin(url, server: server)
        case .tooManyRedirects(let method, let url, let hops):
            SwaggerError(.server, "\(method) \(url.pathAndQuery.prefix(40)) was redirected \(hops) times; stopped.")
        }
    }
}

extension APIRequest {
    /// The request as `outgoing` says it goes: with its method, and without the body (and its `Content-Type`) or the
    /// cookies that a redirect dropped.
    fileprivate func sent(as outgoing: RequestCoordinator.Outgoing) -> APIRequest {
        guard outgoing.method != method || !outgoing.keepsBody || !outgoing.keepsCookies else { return self }
        var sent = self
        sent.method = outgoing.method
        if !outgoing.keepsBody {
            sent.body = nil
            sent.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        // A cookie, like the token, is the server's.
        if !outgoing.keepsCookies { sent.headers.removeAll { $0.name.lowercased() == "cookie" } }
        return sent
    }
}
