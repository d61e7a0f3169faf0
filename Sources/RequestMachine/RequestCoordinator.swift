import FoundationEssentials
import SessionMachine
import SwaggerModel

/// The decisions of the person's own request (`swaggerctl api`), with every redirect and page it leads to, as a
/// value-type state machine with no I/O.
///
/// It holds three machines and turns their actions into its own, as async-http-client's connection state machine
/// holds its request state machine: the token's use (``MainCoordinator`` for ``RequestPurpose``: refreshed first
/// when due, and once more on a 401, with the request repeated), the redirect rule (``Redirect``) and the pagination
/// (``Pagination``). ``SessionController`` performs each action and feeds its outcome back as the next event: one
/// event in, one action out. A request out with the token or without it, a redirect's hop, a page asked for before
/// the page before it was read, pages named ahead and several on their way at once, a page refused for a token that
/// was renewed since it left, and a refused answer kept while the token is renewed are all states of this machine.
///
/// Requests are answered to the person in the order they were made; the machine waits for the oldest one out
/// (``Action/await(id:_:)``), while the later ones arrive on their own connections. It keeps each request's answer to
/// come (``PendingResponse``), given with ``sent(_:)``, beside the request, and hands it back to be awaited or given
/// up: the owner keeps no list of its own, so it cannot be told to await a request that was never sent.
///
/// Feeding an event in a state where it cannot happen is a programming error in the owner, and stops the process
/// as a failed precondition does.
package struct RequestCoordinator: Sendable {
    /// What the person asked for.
    package struct Settings: Sendable, Hashable {
        /// The first request's URL and method.
        package var url: URL
        package var method: String
        /// The session's server: its origin alone gets the token.
        package var server: ServerURL
        /// Whether a redirect to another origin is followed (`--location`), without the token.
        package var crossOrigin: Bool
        /// For `--paginate`; `nil` for one request.
        package var paging: PageWalk?

        package init(url: URL, method: String, server: ServerURL, crossOrigin: Bool = false, paging: PageWalk? = nil) {
            self.url = url
            self.method = method
            self.server = server
            self.crossOrigin = crossOrigin
            self.paging = paging
        }
    }

    /// `--paginate`'s settings.
    package struct PageWalk: Sendable, Hashable {
        /// The most pages to fetch (`--max-pages`).
        package var limit: Int?
        /// The most pages on their way at once (`--parallel`), for lists whose pages can be named ahead.
        package var parallel: Int
        /// What the server's description names.
        package var described: SwaggerModel.Paging?

        package init(limit: Int? = nil, parallel: Int = 1, described: SwaggerModel.Paging? = nil) {
            self.limit = limit
            self.parallel = parallel
            self.described = described
        }
    }

    /// A request to send: the person's, to `url`, changed only as redirects change it.
    package struct Outgoing: Sendable, Hashable, Redacting {
        /// The request's number, in the order they were made, which ``Action/await(id:_:)`` and
        /// ``Action/cancel(id:_:)`` name it by.
        package var id: Int
        package var url: URL
        package var method: String
        /// Whether the person's body goes with it: a 303 drops it, with its `Content-Type`, and so does a 301 or 302
        /// that turns a POST into a GET.
        package var keepsBody: Bool
        /// Whether the person's `Cookie` goes with it: not once a redirect has left the session's origin.
        package var keepsCookies: Bool
        /// The token, for a request to the session's origin; `nil` for any other.
        package var accessToken: String?
        /// What the session's tokens are bound to, which the request carries as it carries the token.
        package var binding = SessionBinding()
    }

    /// How the request ended, once every response it fetched has been handed over.
    package struct Outcome: Sendable, Hashable {
        /// The last response's status.
        package var status: Int = 0
        /// How many responses were handed over: one, or one for each page.
        package var pages: Int = 0
        /// Why `--paginate` stopped before the list's end, when it did.
        package var stoppedEarly: Pagination.Next?
        package var server: ServerURL
        /// The request's method, which the line for a failure names.
        package var method: String
        /// Whether the token came from `SWAGGERCTL_TOKEN`, which cannot be refreshed.
        package var usedEnvironmentToken = false

        package init(
            status: Int = 0, pages: Int = 0, stoppedEarly: Pagination.Next? = nil, server: ServerURL, method: String,
            usedEnvironmentToken: Bool = false
        ) {
            self.status = status
            self.pages = pages
            self.stoppedEarly = stoppedEarly
            self.server = server
            self.method = method
            self.usedEnvironmentToken = usedEnvironmentToken
        }
    }

    package enum Failure: Sendable, Hashable {
        case session(SessionFailure)
        /// The request's URL is not on the session's origin: nothing is sent.
        case offOrigin(URL)
        /// A request redirected `hops` times in a row, the last time from `url`.
        case tooManyRedirects(method: String, url: URL, hops: Int)
    }

    /// What the owner is to do next. The cases that happen once, whose payloads are large, are boxed (`indirect`):
    /// every page's actions are a few words, copied and destroyed without reading a session record's or a failure's
    /// layout.
    package enum Action: Sendable {
        /// Carry out the token's I/O, then send ``settled(_:now:)`` with what it found.
        indirect case settle(TokenWork)
        /// The server will not serve this session: remove it, under the refresh lock, and report.
        indirect case endSession(SessionEnd)
        /// Start the request, whose answer is awaited later; then send ``sent(_:)`` with the answer to come.
        case send(Outgoing)
        /// Wait for the answer to the request `id`, then send ``received(_:)`` or ``failed(_:)``.
        case await(id: Int, PendingResponse)
        /// Give up the request `id`, whose answer is not wanted; then send ``cancelled()``.
        case cancel(id: Int, PendingResponse)
        /// Hand the response over to be shown; then send ``delivered()``.
        case deliver(APIResponse)
        indirect case finish(Outcome)
        indirect case fail(Failure)

        /// Whether the refresh lock, when it is held, is kept for this action: it is for the token's work and the
        /// session's removal, and released before any request goes out or any answer is shown.
        package var keepsLock: Bool {
            switch self {
            case .settle, .endSession: true
            case .send, .await, .cancel, .deliver, .finish, .fail: false
            }
        }
    }

    /// What the machine waits for.
    private enum State: Sendable {
        case idle
        /// The token is being read, or renewed under the lock.
        case settlingToken
        /// Sending `ticket`, which joins the requests out, first or last, once it is on its way.
        case sending(Ticket, first: Bool)
        case awaiting
        case cancelling
        case delivering
        case finished
    }

    /// A request to send, or out.
    private struct Ticket: Sendable {
        var out: Outgoing
        var hops = 0
        /// The URL it was asked for at, before any redirect: the pagination's name for the page.
        var asked: URL
        /// Whether it was sent again already, after a 429 of pages fetched at once.
        var resent = false
    }

    /// A request on its way, with its answer to come.
    private struct Sent: Sendable {
        var ticket: Ticket
        var answer: PendingResponse
    }

    /// The machine's next steps, carried out in order as the owner reports each action done.
    private enum Plan: Sendable {
        /// Send `ticket`, to be the first of the requests out (a request sent again or redirected, whose answer is
        /// awaited next) or the last.
        case send(Ticket, first: Bool)
        case cancel(Int)
        /// Ask early for pages that can be asked for before `page` is read whole, as many as the window allows.
        case fill(after: APIResponse)
        case read(APIResponse, asked: URL)
        case deliver(APIResponse)
        /// Wait for the oldest request out, once the window is full; finish when none is out.
        case awaitOldest
        case finish
    }

    private var state: State = .idle
    private let settings: Settings
    private var tokenMachine = MainCoordinator(purpose: RequestPurpose())
    private var pagination: Pagination?
    /// The most requests out at once: 1, or `--parallel` until the server asks to slow down.
    private var window: Int
    private var plans: [Plan] = []
    /// The requests out, oldest first: the order their answers are handed over in.
    private var out: [Sent] = []
    /// The token in use, and what it is bound to.
    private var accessToken: String?
    private var binding = SessionBinding()
    /// The request to send once the token is settled, and the answer that refused the last token.
    private var pending: Ticket?
    private var refused: APIResponse?
    private var nextID = 0
    private var outcome: Outcome

    package init(_ settings: Settings) {
        self.settings = settings
        pagination = settings.paging.map {
            Pagination(first: settings.url, server: settings.server, limit: $0.limit, paging: $0.described)
        }
        window = max(1, settings.paging?.parallel ?? 1)
        outcome = Outcome(server: settings.server, method: settings.method)
    }

    // MARK: - Events

    /// The person's request is to be sent with the session from `source`.
    package mutating func start(_ source: TokenSource, now: Date, plainHTTP: PlainHTTP) -> Action {
        guard case .idle = state else { invalid("start") }
        // Refused before the session is read: the request was built to stay on the server's origin, and this is
        // where that is made sure of.
        guard settings.server.isSameOrigin(settings.url) else { return fail(.offOrigin(settings.url)) }
        if case .environment = source { outcome.usedEnvironmentToken = true }
        pending = ticket(to: settings.url, method: settings.method)
        return mapped(tokenMachine.start(source, now: now, plainHTTP: plainHTTP))
    }

    /// The request of the last ``Action/send(_:)`` is on its way; `answer` is its answer to come.
    package mutating func sent(_ answer: PendingResponse) -> Action {
        guard case .sending(let ticket, let first) = state else { invalid("sent") }
        out.insert(Sent(ticket: ticket, answer: answer), at: first ? 0 : out.count)
        return advance()
    }

    /// The request of the last ``Action/cancel(_:)`` was given up.
    package mutating func cancelled() -> Action {
        guard case .cancelling = state else { invalid("cancelled") }
        return advance()
    }

    /// The response of the last ``Action/deliver(_:)`` was handed over.
    package mutating func delivered() -> Action {
        guard case .delivering = state else { invalid("delivered") }
        return advance()
    }

    /// The answer to the request of the last ``Action/await(id:_:)`` arrived.
    package mutating func received(_ response: APIResponse) -> Action {
        guard case .awaiting = state, let ticket = out.first?.ticket else { invalid("received") }
        out.removeFirst()
        if response.throttled { window = 1 }
        if let sentWith = ticket.out.accessToken {
            // Refused for a token renewed since the request left: asked again with the new one, which the server has
            // not seen yet.
            if sentWith != accessToken {
                if response.status == 401 { return again(ticket) }
            } else if case .settle(let work) = tokenMachine.responseReceived(status: response.status) {
                pending = ticket
                refused = response
                state = .settlingToken
                return .settle(work)
            }
        }
        switch Redirect.decide(
            status: response.status, location: response.header("Location"), from: ticket.out.url,
            method: ticket.out.method, server: settings.server, crossOrigin: settings.crossOrigin, hops: ticket.hops)
        {
        case .follow(let url, let method, let keepsBody, let withToken):
            var hop = ticket
            hop.out = Outgoing(
                id: newID(), url: url, method: method, keepsBody: ticket.out.keepsBody && keepsBody,
                keepsCookies: ticket.out.keepsCookies && withToken, accessToken: withToken ? accessToken : nil,
                binding: binding)
            hop.hops += 1
            plans = [.send(hop, first: true), .awaitOldest]
            return advance()
        case .tooMany:
            return fail(.tooManyRedirects(method: ticket.out.method, url: ticket.out.url, hops: ticket.hops))
        case .stand:
            break
        }
        // A page of a list fetched several at a time that the server refused for coming too fast: once more, now
        // that the pages go one at a time.
        if response.status == 429, (settings.paging?.parallel ?? 1) > 1, !ticket.resent, ticket.hops == 0 {
            window = 1
            var retry = ticket
            retry.resent = true
            return again(retry)
        }
        outcome.status = response.status
        guard response.isSuccess, pagination != nil else {
            plans = cancellingAll() + [.deliver(response), .finish]
            return advance()
        }
        plans = [.fill(after: response), .read(response, asked: ticket.asked)]
        return advance()
    }

    /// No answer to the request of the last ``Action/await(id:_:)`` arrived.
    package mutating func failed(_ error: APIServiceError) -> Action {
        guard case .awaiting = state else { invalid("failed") }
        return fail(.session(tokenMachine.requestFailed(error)))
    }

    /// The owner stops, whatever the state: the answers still to come, which no one will await, to be given up.
    package mutating func stopped() -> [PendingResponse] {
        state = .finished
        defer { out.removeAll() }
        return out.map(\.answer)
    }

    /// The owner did the token's work that the last action asked for, and found `result`.
    package mutating func settled(_ result: TokenResult, now: Date) -> Action {
        guard case .settlingToken = state else { invalid("settled(\(result.name))") }
        return mapped(tokenMachine.settled(result, now: now))
    }

    // MARK: - Helpers

    /// The token machine's action as this machine's: its step goes on here, and the rest is the owner's to do.
    private mutating func mapped(_ action: MainCoordinator<RequestPurpose>.Action) -> Action {
        switch action {
        case .settle(let work):
            state = .settlingToken
            return .settle(work)
        case .endSession(let end):
            state = .finished
            return .endSession(end)
        case .proceed(let step):
            return use(step)
        case .fail(let failure):
            return fail(.session(failure))
        }
    }

    /// Goes on from the token's step: sends the request that waited for the token, or hands over the answer that
    /// refused it when the token cannot be renewed.
    private mutating func use(_ step: RequestPurpose.Step) -> Action {
        guard let ticket = pending.take() else { invalid("use") }
        switch step {
        case .send(let accessToken, let binding):
            self.accessToken = accessToken
            self.binding = binding
            return again(ticket)
        case .keepAnswer:
            guard let answer = refused.take() else { invalid("keepAnswer") }
            outcome.status = answer.status
            plans = cancellingAll() + [.deliver(answer), .finish]
            return advance()
        }
    }

    /// `ticket` sent again, first of the requests out, with the token in use.
    private mutating func again(_ ticket: Ticket) -> Action {
        var repeated = ticket
        repeated.out.id = newID()
        repeated.out.accessToken = token(to: ticket.out.url)
        repeated.out.binding = binding
        plans = [.send(repeated, first: true), .awaitOldest]
        return advance()
    }

    /// Carries out the plans in order, up to the first that the owner must act on.
    private mutating func advance() -> Action {
        while !plans.isEmpty {
            switch plans.removeFirst() {
            case .send(let ticket, let first):
                state = .sending(ticket, first: first)
                return .send(ticket.out)
            case .cancel(let id):
                guard let index = out.firstIndex(where: { $0.ticket.out.id == id }) else { continue }
                let cancelled = out.remove(at: index)
                state = .cancelling
                return .cancel(id: id, cancelled.answer)
            case .fill(let page):
                guard out.count < window, let url = pagination?.upcoming(after: page) else { continue }
                let early = ticket(to: url, method: "GET")
                plans.insert(.fill(after: page), at: 0)
                state = .sending(early, first: false)
                return .send(early.out)
            case .read(let page, let asked):
                guard let next = pagination?.received(page, from: asked) else { invalid("read") }
                plans = decide(next, after: page)
            case .deliver(let response):
                outcome.pages += 1
                state = .delivering
                return .deliver(response)
            case .awaitOldest:
                // Pages named ahead fill the window before the oldest is waited for.
                if out.count < window, let url = pagination?.upcoming(after: nil) {
                    let ahead = ticket(to: url, method: "GET")
                    plans.insert(.awaitOldest, at: 0)
                    state = .sending(ahead, first: false)
                    return .send(ahead.out)
                }
                guard let oldest = out.first else {
                    state = .finished
                    return .finish(outcome)
                }
                state = .awaiting
                return .await(id: oldest.ticket.out.id, oldest.answer)
            case .finish:
                state = .finished
                return .finish(outcome)
            }
        }
        invalid("advance")
    }

    /// The plans that follow what the pagination decided of `page`.
    private mutating func decide(_ next: Pagination.Next, after page: APIResponse) -> [Plan] {
        switch next {
        case .fetch(let url):
            // The page asked for early stands when it is the one decided; any other is given up.
            if out.contains(where: { $0.ticket.asked == url }) { return [.deliver(page), .awaitOldest] }
            return cancellingAll() + [
                .send(ticket(to: url, method: "GET"), first: false), .deliver(page), .awaitOldest,
            ]
        case .planned:
            return [.deliver(page), .awaitOldest]
        case .complete:
            return cancellingAll() + [.deliver(page), .finish]
        case .repeated:
            outcome.stoppedEarly = next
            return cancellingAll() + [.finish]
        case .limitReached, .offServer, .loop, .undetermined, .unnamedCursor, .unnamedPage, .cut:
            outcome.stoppedEarly = next
            return cancellingAll() + [.deliver(page), .finish]
        }
    }

    /// A plan to give up every request out.
    private func cancellingAll() -> [Plan] {
        out.map { .cancel($0.ticket.out.id) }
    }

    private mutating func ticket(to url: URL, method: String) -> Ticket {
        Ticket(
            out: Outgoing(
                id: newID(), url: url, method: method, keepsBody: true, keepsCookies: true,
                accessToken: token(to: url), binding: binding),
            asked: url)
    }

    /// The one rule for the token: it goes with a request to the session's origin, and with no other, wherever the URL
    /// came from (the person, the document, a redirect or a page).
    private func token(to url: URL) -> String? {
        settings.server.isSameOrigin(url) ? accessToken : nil
    }

    private mutating func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func fail(_ failure: Failure) -> Action {
        state = .finished
        return .fail(failure)
    }

    /// Stops the process: the owner sent an event that cannot happen in this state.
    private func invalid(_ event: String) -> Never {
        preconditionFailure("RequestCoordinator: \(event) cannot happen in state \(state)")
    }

    package typealias Phase = RequestCoordinatorPhase

    /// The state the coordinator is in.
    var phase: Phase {
        switch state {
        case .idle: .idle
        case .settlingToken: .settlingToken
        case .sending: .sending
        case .awaiting: .awaiting
        case .cancelling: .cancelling
        case .delivering: .delivering
        case .finished: .finished
        }
    }
}

/// The states of ``RequestCoordinator``, by name: what its transition table test is made from.
package enum RequestCoordinatorPhase: String, CaseIterable, Sendable {
    case idle, settlingToken, sending, awaiting, cancelling, delivering, finished
}
