import FoundationEssentials
import RequestMachine
import SessionMachine
import SwaggerHTTP
import SwaggerModel

/// The text of `swaggerctl api`: the body for standard output, the status and headers for `-i`, and the one
/// line that says why a response is a failure.
///
/// On a terminal, a JSON body is indented and anything a server could use to take over the terminal is shown
/// as an escape instead; in a pipe, the body is written exactly as it arrived, for `jq` and friends.
package struct ResponseRenderer: Sendable {
    /// Whether standard output is a terminal, or is to be written as for one.
    package var forTerminal: Bool
    /// Whether JSON is coloured, as jq colours it.
    package var colour: Bool

    package init(forTerminal: Bool, colour: Bool = false) {
        self.forTerminal = forTerminal || colour
        self.colour = colour
    }

    /// What standard output shows of `body`.
    ///
    /// In a pipe, a text body that does not end its line is ended, so that the shell's next prompt starts on a line
    /// of its own, as `curl -w '\n'` would; a binary body is written as received. `separated` says whether another
    /// body may follow, as with `--paginate`: then any body is ended, so that each page's JSON stays apart.
    package func body(_ body: Data, separated: Bool = false) -> Data {
        guard forTerminal else {
            guard let last = body.last, last != UInt8(ascii: "\n"), separated || Self.isText(body) else { return body }
            var ended = body
            ended.append(UInt8(ascii: "\n"))
            return ended
        }
        guard !body.isEmpty else { return Data() }
        if let indented = JSONText.indented(body) {
            let safe = TerminalText.escapedJSON(indented)
            return Data(((colour ? JSONText.coloured(safe) : safe) + "\n").utf8)
        }
        // Text: each line made safe on its own, so that the line breaks stay. In Swift "\r\n" is one Character.
        var text = String(decoding: body, as: UTF8.self)
        if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map {
            TerminalText.escaped(String($0))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Whether `body` is text, whose lines a pipe expects ended: valid UTF-8 with no NUL byte, which no text holds.
    static func isText(_ body: Data) -> Bool {
        !body.contains(0) && String(validating: body, as: UTF8.self) != nil
    }

    /// `--jq`'s results of `program` run on `body`, for standard output, each on a line of its own: a string as its
    /// text, as `jq -r` and `gh api --jq` print it, and any other value as ``body(_:separated:)`` shows JSON.
    /// - Throws: `SwaggerError` with code `failure` when the body is not JSON or the program fails on it.
    package func jq(_ program: JQProgram, on body: Data) throws(SwaggerError) -> Data {
        var output = Data()
        do throws(JQError) {
            try program.run(on: body) { result in
                switch result {
                case .text(let text):
                    let shown = forTerminal ? TerminalText.escaped(text) : text
                    output.append(contentsOf: (shown + "\n").utf8)
                case .json(let json):
                    output.append(self.body(Data(json.utf8), separated: true))
                }
            }
        } catch {
            throw SwaggerError(.failure, "--jq: \(error.description).")
        }
        return output
    }

    /// `-i`'s lines for standard output, before the body: the status line with the response's own HTTP version, then
    /// each header, and a blank line, as `curl -i` shows them.
    /// - Returns: The lines, each ended, each safe for a terminal.
    package func head(_ response: APIResponse) -> String {
        let status = "\(response.version) \(response.status) \(response.reason)".trimmingWhitespace()
        let lines = [status] + response.headers.map { "\($0.name): \($0.value)" }
        return lines.map { TerminalText.escaped($0) + "\n" }.joined() + "\n"
    }

    /// The error for a response that is not a success, whose body has been shown already; `nil` for a success.
    /// It names the request (`GET /users/me`) and quotes what the server said: an RFC 9457 problem's `detail` or
    /// `title`, or an error body's `message`.
    /// - Returns: The error: 401 is code `authentication`, another 4xx or a 3xx `failure`, and 5xx or anything
    ///   else `server`.
    package static func failure(_ response: APIResponse, _ outcome: RequestCoordinator.Outcome) -> SwaggerError? {
        guard !response.isSuccess else { return nil }
        let request = "\(outcome.method) \(TerminalText.cut(Self.address(response.url, outcome), to: 40))"
        let status = "HTTP \(response.status)\(response.reason.isEmpty ? "" : " \(response.reason)")"
        let said = APIService.serverMessage(json: response.body).map { ": \(TerminalText.quoted($0))" } ?? ""
        switch response.status {
        // Another origin's 401, after a redirect followed with -L, was to a request that went without the token.
        case 401 where outcome.server.isSameOrigin(response.url):
            let advice =
                outcome.usedEnvironmentToken
                ? "SWAGGERCTL_TOKEN is not accepted here; unset it to use the stored session."
                : "If `swaggerctl details` says the session has ended, log in again."
            return SwaggerError(.authentication, "\(request): the token was refused (\(status)). \(advice)")
        case 300..<400:
            let location = response.header("Location").map { " to \(TerminalText.cut($0, to: 40))" } ?? ""
            return SwaggerError(
                .failure,
                "\(request) was redirected (HTTP \(response.status))\(location); -L follows it, without the token.")
        case 400..<500:
            return SwaggerError(.failure, "\(request) was refused (\(status))\(said).")
        default:
            return SwaggerError(.server, "\(request) failed (\(status))\(said).")
        }
    }

    /// A page's address in a line: its path on the session's server, else the whole URL, cut short.
    static func address(_ url: URL, _ outcome: RequestCoordinator.Outcome) -> String {
        outcome.server.isSameOrigin(url)
            ? TerminalText.cut(url.pathAndQuery, to: 40) : TerminalText.cut(url.absoluteString, to: 40)
    }

    /// The line for a `--paginate` that stopped before the last page, and its code: only the page limit is
    /// not an error, as it is asked for.
    /// - Returns: A warning's text, or an error.
    package static func stop(_ next: Pagination.Next, _ outcome: RequestCoordinator.Outcome)
        -> Result<String, SwaggerError>?
    {
        switch next {
        case .limitReached(let url):
            return .success(
                "stopped after \(Self.pages(outcome.pages)), as --max-pages says; the next is "
                    + "\(url.absoluteString.prefix(300)).")
        case .offServer(let url):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): the next page, \(Self.address(url, outcome)), is off "
                        + "\(outcome.server), and the token goes nowhere else."))
        case .loop(let url):
            return .failure(
                SwaggerError(
                    .server,
                    "Stopped after \(Self.pages(outcome.pages)): the server gave \(Self.address(url, outcome)) as the "
                        + "next page, which was fetched already."))
        case .undetermined(let members):
            let named = members.map { "\"\($0)\"" }.joined(separator: ", ")
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): part of a list (it has \(named)) names no next page. Page "
                        + "with the API's own parameters."))
        case .repeated(let url):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): \(Self.address(url, outcome)) repeated the page before; "
                        + "the list may be incomplete. Page with the API's parameters."))
        case .unnamedCursor(let member):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): no parameter takes \"\(member)\"; server set "
                        + "\(outcome.server) --set paging.cursor=NAME"))
        case .unnamedPage(let member):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): no parameter takes \"\(member)\"; server set "
                        + "\(outcome.server) --set paging.page=NAME"))
        case .cut(let criterion, let items):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)), \(items) items: the server cut the list "
                        + "(\(criterion)). Filter it."))
        case .fetch, .planned, .complete:
            return nil
        }
    }

    private static func pages(_ count: Int) -> String {
        count == 1 ? "1 page" : "\(count) pages"
    }
}
