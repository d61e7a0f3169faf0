import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import RequestMachine
@testable import SessionMachine

/// `swaggerctl api`'s machine as a table: each row an event fed in and the one action that comes out, with no I/O.
/// Together the rows feed every event in each state where it can happen: starting, the token read and renewed, a
/// request sent, awaited, refused, redirected, failed, cancelled, and a page delivered.
@Suite(
    "RequestCoordinator: the person's request, its redirects and pages, one event in and one action out",
    .timeLimit(.minutes(5)))
struct RequestCoordinatorTests {
    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let fresh = Fixtures.record(Fixtures.ana, expiresAt: now.addingTimeInterval(600))
    static let environment = TokenSource.environment(token: "env", server: Fixtures.server, description: nil)

    enum Event {
        case start(TokenSource)
        case settled(TokenResult)
        case sent, cancelled, delivered
        case received(APIResponse)
        case failed(APIServiceError)
    }

    /// The answer to come of a request the rows send: they feed its answer themselves, and never read this one.
    static let unread = PendingResponse.failed(.timedOut)

    static func url(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure(text) }
        return url
    }

    static func response(
        _ status: Int, _ url: String = "http://127.0.0.1:8080/api/items", body: String = "{}",
        headers: [String: String] = [:], throttled: Bool = false
    ) -> APIResponse {
        APIResponse(
            url: Self.url(url), status: status, reason: "", headers: headers.map { HeaderField(name: $0, value: $1) },
            body: Data(body.utf8), throttled: throttled)
    }

    /// An action as a row writes it: a request by its id, method, path and token; a response by its status and
    /// path.
    static func text(_ action: RequestCoordinator.Action) -> String {
        switch action {
        case .settle(.readAccessToken), .settle(.readCredentials): "read token"
        case .settle(.lock): "lock"
        case .settle(.checkRenewable): "check renewable"
        case .settle(.refresh): "refresh"
        case .settle(.store): "store"
        case .settle(.leaveNote(let note)): note == nil ? "clear note" : "leave note"
        case .endSession: "end session"
        case .send(let out):
            "send \(out.id) \(out.method) \(out.url.host() ?? "")\(out.url.pathAndQuery) "
                + "token=\(out.accessToken ?? "none")\(out.keepsBody ? "" : " nobody")\(out.keepsCookies ? "" : " nocookie")"
        case .await(let id, _): "await \(id)"
        case .cancel(let id, _): "cancel \(id)"
        case .deliver(let response): "deliver \(response.status) \(response.url.pathAndQuery)"
        case .finish(let outcome):
            "finish \(outcome.status) pages=\(outcome.pages)" + (outcome.stoppedEarly.map { " \($0)" } ?? "")
        case .fail(let failure):
            switch failure {
            case .session: "fail session"
            case .offOrigin(let url): "fail offOrigin \(url.absoluteString)"
            case .tooManyRedirects(_, _, let hops): "fail redirected \(hops)"
            }
        }
    }

    /// Feeds `rows` in order to a machine made with `settings`, and checks each action.
    static func check(
        _ settings: RequestCoordinator.Settings, _ rows: [(Event, String)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var machine = RequestCoordinator(settings)
        for (index, (event, expected)) in rows.enumerated() {
            let action: String
            switch event {
            case .start(let source): action = text(machine.start(source, now: now, plainHTTP: PlainHTTP()))
            case .settled(let result): action = text(machine.settled(result, now: now))
            case .sent: action = text(machine.sent(unread))
            case .cancelled: action = text(machine.cancelled())
            case .delivered: action = text(machine.delivered())
            case .received(let response): action = text(machine.received(response))
            case .failed(let error): action = text(machine.failed(error))
            }
            #expect(action == expected, "row \(index + 1)", sourceLocation: sourceLocation)
            guard action == expected else { return }
        }
    }

    static func settings(
        _ path: String = "/api/items", method: String = "GET", crossOrigin: Bool = false,
        paging: RequestCoordinator.PageWalk? = nil
    ) -> RequestCoordinator.Settings {
        .init(
            url: url("http://127.0.0.1:8080" + path), method: method, server: Fixtures.server, crossOrigin: crossOrigin,
            paging: paging)
    }

    // MARK: - One request

    @Test("a request is sent with the token, awaited, and its answer delivered; a stored token is read first")
    func oneRequest() {
        Self.check(
            Self.settings(),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env"),
                (.sent, "await 1"),
                (.received(Self.response(404)), "deliver 404 /api/items"),
                (.delivered, "finish 404 pages=1"),
            ])
        Self.check(
            Self.settings(),
            [
                (.start(.stored(Self.fresh)), "read token"),
                (.settled(.accessToken("a")), "send 1 GET 127.0.0.1/api/items token=a"),
                (.sent, "await 1"),
                (.failed(.timedOut), "fail session"),
            ])
    }

    @Test("a URL off the server's origin fails before the session is read")
    func elsewhere() {
        let settings = RequestCoordinator.Settings(
            url: Self.url("http://127.0.0.2:8080/api/items"), method: "GET", server: Fixtures.server)
        Self.check(settings, [(.start(.stored(Self.fresh)), "fail offOrigin http://127.0.0.2:8080/api/items")])
    }

    @Test("a 401 renews the token under the lock and repeats the request once; another process's renewal is used")
    func renewed() {
        let theirs = Credentials(accessToken: "theirs", refreshToken: "r")
        Self.check(
            Self.settings(method: "POST"),
            [
                (.start(.stored(Self.fresh)), "read token"),
                (.settled(.accessToken("a")), "send 1 POST 127.0.0.1/api/items token=a"),
                (.sent, "await 1"),
                (.received(Self.response(401)), "lock"),
                (
                    .settled(.locked(LockedSession(record: Self.fresh, credentials: theirs, waitingSince: Self.now))),
                    "send 2 POST 127.0.0.1/api/items token=theirs"
                ),
                (.sent, "await 2"),
                (.received(Self.response(401)), "deliver 401 /api/items"),
                (.delivered, "finish 401 pages=1"),
            ])
        // SWAGGERCTL_TOKEN cannot be renewed: its 401 is the answer.
        Self.check(
            Self.settings(),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env"),
                (.sent, "await 1"),
                (.received(Self.response(401)), "deliver 401 /api/items"),
            ])
    }

    // MARK: - Redirects

    @Test("a redirect on the origin keeps the token; elsewhere, with -L, each hop goes without it, to the end")
    func redirects() {
        let found = { (location: String) in Self.response(302, headers: ["Location": location]) }
        // A stored session, which a 401 of its own server would renew.
        Self.check(
            Self.settings(method: "POST", crossOrigin: true),
            [
                (.start(.stored(Self.fresh)), "read token"),
                (.settled(.accessToken("a")), "send 1 POST 127.0.0.1/api/items token=a"),
                (.sent, "await 1"),
                (
                    .received(Self.response(307, headers: ["Location": "/api/v2/items"])),
                    "send 2 POST 127.0.0.1/api/v2/items token=a"
                ),
                (.sent, "await 2"),
                (
                    .received(found("http://127.0.0.2:9000/hop")),
                    "send 3 GET 127.0.0.2/hop token=none nobody nocookie"
                ),
                (.sent, "await 3"),
                // The hop without the token is redirected again: the crash of a machine that lost its place.
                (
                    .received(found("http://127.0.0.3:9000/landing")),
                    "send 4 GET 127.0.0.3/landing token=none nobody nocookie"
                ),
                (.sent, "await 4"),
                // Another host's 401 is its refusal, not the session's: nothing is renewed.
                (.received(Self.response(401, "http://127.0.0.3:9000/landing")), "deliver 401 /landing"),
                (.delivered, "finish 401 pages=1"),
            ])
        // Without -L, the redirect elsewhere is the answer.
        Self.check(
            Self.settings(),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env"),
                (.sent, "await 1"),
                (.received(found("http://127.0.0.2:9000/x")), "deliver 302 /api/items"),
                (.delivered, "finish 302 pages=1"),
            ])
        // A loop ends at the hop limit.
        var rows: [(Event, String)] = [(.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env")]
        for hop in 1...Redirect.hopLimit {
            rows.append((.sent, "await \(hop)"))
            rows.append(
                (.received(found("/api/items")), "send \(hop + 1) GET 127.0.0.1/api/items token=env"))
        }
        rows.append((.sent, "await \(Redirect.hopLimit + 1)"))
        rows.append((.received(found("/api/items")), "fail redirected \(Redirect.hopLimit)"))
        Self.check(Self.settings(), rows)
    }

    // MARK: - Pages

    static func numbered(_ page: Int, of last: Int = 4, throttled: Bool = false) -> APIResponse {
        response(
            200, "http://127.0.0.1:8080/api/items?page=\(page)",
            body: #"{"items": [\#(page)], "page": \#(page), "total_pages": \#(last)}"#, throttled: throttled)
    }

    @Test("pages: the next asked for before this one is delivered, and the last one finishes")
    func pages() {
        let next = #"<http://127.0.0.1:8080/api/items?page=2>; rel="next""#
        Self.check(
            Self.settings(paging: .init()),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env"),
                (.sent, "await 1"),
                (
                    .received(Self.response(200, body: "[1]", headers: ["Link": next])),
                    "send 2 GET 127.0.0.1/api/items?page=2 token=env"
                ),
                (.sent, "deliver 200 /api/items"),
                (.delivered, "await 2"),
                (
                    .received(Self.response(200, "http://127.0.0.1:8080/api/items?page=2", body: "[2]")),
                    "deliver 200 /api/items?page=2"
                ),
                (.delivered, "finish 200 pages=2"),
            ])
    }

    @Test("--parallel: pages named ahead fill the window, are delivered in order, and a throttled answer narrows it")
    func parallel() {
        Self.check(
            Self.settings("/api/items?page=1", paging: .init(parallel: 3)),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items?page=1 token=env"),
                (.sent, "await 1"),
                (.received(Self.numbered(1, of: 6)), "send 2 GET 127.0.0.1/api/items?page=2 token=env"),
                (.sent, "deliver 200 /api/items?page=1"),
                (.delivered, "send 3 GET 127.0.0.1/api/items?page=3 token=env"),
                (.sent, "send 4 GET 127.0.0.1/api/items?page=4 token=env"),
                (.sent, "await 2"),
                // A place in the window: the next page named ahead goes before this one is handed over.
                (.received(Self.numbered(2, of: 6)), "send 5 GET 127.0.0.1/api/items?page=5 token=env"),
                (.sent, "deliver 200 /api/items?page=2"),
                (.delivered, "await 3"),
                // The server asked to slow down: one at a time from here, so nothing more until the window drains.
                (.received(Self.numbered(3, of: 6, throttled: true)), "deliver 200 /api/items?page=3"),
                (.delivered, "await 4"),
                (.received(Self.numbered(4, of: 6)), "deliver 200 /api/items?page=4"),
                (.delivered, "await 5"),
                (.received(Self.numbered(5, of: 6)), "send 6 GET 127.0.0.1/api/items?page=6 token=env"),
                (.sent, "deliver 200 /api/items?page=5"),
                (.delivered, "await 6"),
                (.received(Self.numbered(6, of: 6)), "deliver 200 /api/items?page=6"),
                (.delivered, "finish 200 pages=6"),
            ])
    }

    @Test("--parallel: a 429 is asked again once, alone; a page refused for a token renewed since is resent")
    func parallelRefusals() {
        let tooMany = Self.response(429, "http://127.0.0.1:8080/api/items?page=2")
        Self.check(
            Self.settings("/api/items?page=1", paging: .init(parallel: 2)),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items?page=1 token=env"),
                (.sent, "await 1"),
                (.received(Self.numbered(1, of: 3)), "send 2 GET 127.0.0.1/api/items?page=2 token=env"),
                (.sent, "deliver 200 /api/items?page=1"),
                (.delivered, "send 3 GET 127.0.0.1/api/items?page=3 token=env"),
                (.sent, "await 2"),
                (.received(tooMany), "send 4 GET 127.0.0.1/api/items?page=2 token=env"),
                (.sent, "await 4"),
                (.received(Self.numbered(2, of: 3)), "deliver 200 /api/items?page=2"),
                (.delivered, "await 3"),
                (.received(Self.numbered(3, of: 3)), "deliver 200 /api/items?page=3"),
                (.delivered, "finish 200 pages=3"),
            ])
        let renewed = Credentials(accessToken: "new", refreshToken: "r")
        let refused = { (page: Int) in Self.response(401, "http://127.0.0.1:8080/api/items?page=\(page)") }
        Self.check(
            Self.settings("/api/items?page=1", paging: .init(parallel: 2)),
            [
                (.start(.stored(Self.fresh)), "read token"),
                (.settled(.accessToken("old")), "send 1 GET 127.0.0.1/api/items?page=1 token=old"),
                (.sent, "await 1"),
                (.received(Self.numbered(1, of: 3)), "send 2 GET 127.0.0.1/api/items?page=2 token=old"),
                (.sent, "deliver 200 /api/items?page=1"),
                (.delivered, "send 3 GET 127.0.0.1/api/items?page=3 token=old"),
                (.sent, "await 2"),
                (.received(refused(2)), "lock"),
                (
                    .settled(.locked(LockedSession(record: Self.fresh, credentials: renewed, waitingSince: Self.now))),
                    "send 4 GET 127.0.0.1/api/items?page=2 token=new"
                ),
                (.sent, "await 4"),
                (.received(Self.numbered(2, of: 3)), "deliver 200 /api/items?page=2"),
                (.delivered, "await 3"),
                // Sent with the old token before the renewal: sent again with the new one, not renewed again.
                (.received(refused(3)), "send 5 GET 127.0.0.1/api/items?page=3 token=new"),
                (.sent, "await 5"),
                (.received(Self.numbered(3, of: 3)), "deliver 200 /api/items?page=3"),
                (.delivered, "finish 200 pages=3"),
            ])
    }

    @Test("pages stop: at the limit after delivering, and at a repeated page without it, giving up what is out")
    func stops() {
        Self.check(
            Self.settings("/api/items?page=1", paging: .init(limit: 2, parallel: 4)),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items?page=1 token=env"),
                (.sent, "await 1"),
                (.received(Self.numbered(1)), "send 2 GET 127.0.0.1/api/items?page=2 token=env"),
                (.sent, "deliver 200 /api/items?page=1"),
                (.delivered, "await 2"),
                (.received(Self.numbered(2)), "deliver 200 /api/items?page=2"),
                (.delivered, "finish 200 pages=2 limitReached(next: http://127.0.0.1:8080/api/items?page=3)"),
            ])
        let same = { (url: String) in Self.response(200, url, body: #"{"items": [1], "next": "/api/items?page=9"}"#) }
        Self.check(
            Self.settings(paging: .init()),
            [
                (.start(Self.environment), "send 1 GET 127.0.0.1/api/items token=env"),
                (.sent, "await 1"),
                (
                    .received(same("http://127.0.0.1:8080/api/items")),
                    "send 2 GET 127.0.0.1/api/items?page=9 token=env"
                ),
                (.sent, "deliver 200 /api/items"),
                (.delivered, "await 2"),
                (
                    .received(same("http://127.0.0.1:8080/api/items?page=9")),
                    "finish 200 pages=1 repeated(http://127.0.0.1:8080/api/items?page=9)"
                ),
            ])
    }

    @Test("each request's answer to come is handed back to await or give up, and those still out when the owner stops")
    func answersHandedBack() async throws {
        // Each answer to come reads as the page it was given for, so that the one handed back names itself.
        let answer = { (page: Int) in PendingResponse { Self.numbered(page, of: 3) } }
        var machine = RequestCoordinator(Self.settings("/api/items?page=1", paging: .init(parallel: 2)))
        var action = machine.start(Self.environment, now: Self.now, plainHTTP: PlainHTTP())
        action = machine.sent(answer(1))
        guard case .await(1, let first) = action else { Issue.record("awaits \(Self.text(action))"); return }
        action = machine.received(try await first.response())
        action = machine.sent(answer(2))
        guard case .deliver(let page) = action else { Issue.record("delivers \(Self.text(action))"); return }
        #expect(page.url.pathAndQuery == "/api/items?page=1")
        action = machine.delivered()
        action = machine.sent(answer(3))
        guard case .await(2, let second) = action else { Issue.record("awaits \(Self.text(action))"); return }
        #expect(try await second.response().url.pathAndQuery == "/api/items?page=2")
        let left = machine.stopped()
        #expect(left.count == 2)
        #expect(try await left.last?.response().url.pathAndQuery == "/api/items?page=3")
        #expect(machine.phase == .finished)
    }

    @Test("an event that cannot happen in the state stops the process")
    func invalidEvent() async {
        await #expect(processExitsWith: .failure) {
            var machine = RequestCoordinator(Self.settings())
            _ = machine.delivered()
        }
    }
}
