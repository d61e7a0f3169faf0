import FoundationEssentials

/// The text of `swaggerctl api`: the body for standard output, the status and headers for `-i`, and the one
/// line that says why a response is a failure.
///
/// On a terminal, a JSON body is indented and anything a server could use to take over the terminal is shown
/// as an escape instead; in a pipe, the body is written exactly as it arrived, for `jq` and friends.
public struct ResponseRenderer: Sendable {
    /// Whether standard output is a terminal.
    public var forTerminal: Bool

    /// Creates a renderer.
    /// - Parameter forTerminal: Whether standard output is a terminal.
    public init(forTerminal: Bool) {
        self.forTerminal = forTerminal
    }

    /// What standard output shows of `body`.
    /// - Parameters:
    ///   - body: A response's body.
    ///   - separated: Whether another body may follow, as with `--paginate`: a body that does not end its line
    ///     is ended, so that each page's JSON stays apart.
    /// - Returns: The bytes to write.
    public func body(_ body: Data, separated: Bool = false) -> Data {
        guard forTerminal else {
            guard separated, let last = body.last, last != UInt8(ascii: "\n") else { return body }
            return body + Data("\n".utf8)
        }
        guard !body.isEmpty else { return Data() }
        if let indented = JSONText.indented(body) { return Data((TerminalText.escapedJSON(indented) + "\n").utf8) }
        // Text: each line made safe on its own, so that the line breaks stay. In Swift "\r\n" is one Character.
        var text = String(decoding: body, as: UTF8.self)
        if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map {
            TerminalText.escaped(String($0))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `--slurp`'s output: one JSON array of every item, each as the server wrote it.
    /// - Parameter items: Each item's JSON text.
    /// - Returns: The bytes to write.
    public func slurped(_ items: [String]) -> Data {
        body(Data(("[" + items.joined(separator: ",") + "]").utf8), separated: true)
    }

    /// `-i`'s lines for standard error: the status line, then each header, as `curl -i` shows them.
    /// - Parameter response: The response.
    /// - Returns: The lines, each ended, each safe for a terminal.
    public func head(_ response: APIResponse) -> String {
        let status = "HTTP \(response.status) \(response.reason)".trimmingWhitespace()
        let lines = [status] + response.headers.map { "\($0.name): \($0.value)" }
        return lines.map { TerminalText.escaped($0) + "\n" }.joined() + "\n"
    }

    /// The error for a response that is not a success, whose body has been shown already; `nil` for a success.
    /// - Parameters:
    ///   - response: The response.
    ///   - outcome: How the request ended.
    /// - Returns: The error: 401 is ``SwaggerError/Code/authentication``, another 4xx or a 3xx
    ///   ``SwaggerError/Code/failure``, and 5xx or anything else ``SwaggerError/Code/server``.
    public static func failure(_ response: APIResponse, _ outcome: SessionController.RequestOutcome) -> SwaggerError? {
        guard !response.isSuccess else { return nil }
        let answered =
            "\(outcome.server) answered HTTP \(response.status)\(response.reason.isEmpty ? "" : " \(response.reason)")"
        switch response.status {
        case 401:
            let advice =
                outcome.usedEnvironmentToken
                ? "SWAGGERCTL_TOKEN is not accepted here; unset it to use the stored session."
                : "If the session has ended, `swaggerctl details` says so; then run "
                    + "`swaggerctl login -s \(outcome.server)`."
            return SwaggerError(.authentication, "\(answered): it refused the token for this request. \(advice)")
        case 300..<400:
            let location = response.header("Location").map { ", to \(String($0.prefix(200)))" } ?? ""
            return SwaggerError(
                .failure,
                "\(answered), a redirect\(location), which is not followed, so that the token goes nowhere else. Ask "
                    + "for the new path instead.")
        case 400..<500:
            return SwaggerError(.failure, "\(answered).")
        default:
            return SwaggerError(.server, "\(answered).")
        }
    }

    /// The line for a `--paginate` that stopped before the last page, and its code: only the page limit is
    /// not an error, as it is asked for.
    /// - Parameters:
    ///   - next: Why it stopped.
    ///   - outcome: How the request ended.
    /// - Returns: A warning's text, or an error.
    public static func stop(_ next: Pagination.Next, _ outcome: SessionController.RequestOutcome)
        -> Result<String, SwaggerError>?
    {
        switch next {
        case .limitReached(let url):
            return .success(
                "stopped after \(outcome.pages) pages, the limit; the next is \(url.absoluteString.prefix(300)). "
                    + "Raise it with --max-pages.")
        case .offServer(let url):
            return .failure(
                SwaggerError(
                    .failure,
                    "Stopped after \(Self.pages(outcome.pages)): the next page is at \(url.absoluteString.prefix(300)), off "
                        + "\(outcome.server), and the token goes only to the server that issued it."))
        case .loop(let url):
            return .failure(
                SwaggerError(
                    .server,
                    "Stopped after \(Self.pages(outcome.pages)): the server gave \(url.absoluteString.prefix(300)) as the "
                        + "next page, which was fetched already."))
        case .fetch, .complete:
            return nil
        }
    }

    private static func pages(_ count: Int) -> String {
        count == 1 ? "1 page" : "\(count) pages"
    }
}
