import FoundationEssentials
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput

/// Where a command writes and whom it asks: the terminal in the program, a recording in a test.
///
/// A command's flow says what to print; the console knows how this process prints it (a descriptor, colour, width,
/// a spinner), so that the same flow runs under a test that reads back every line.
package protocol Console: Sendable {
    /// Writes `text` to standard output as it is.
    func print(_ text: String)
    /// Writes `bytes` to standard output as they are: a response's body.
    func write(_ bytes: Data)
    /// Writes `text` as one line on standard error, its control characters escaped.
    func notice(_ text: String)
    /// Whether standard output is a terminal, which a response is shaped for.
    var outputIsTerminal: Bool { get }
    /// Whether standard output may be coloured: a terminal, without `NO_COLOR` or `TERM=dumb`.
    var colourEnabled: Bool { get }
    /// The width of the terminal on standard output; `nil` off one.
    var columns: Int? { get }
    /// Whether the person can be asked a question: standard input is a terminal.
    var canAsk: Bool { get }
    /// Whether standard error is a terminal, where a question's context and a progress line are seen.
    var errorIsTerminal: Bool { get }
    /// Asks for one line with echo on.
    /// - Throws: ``SwaggerError/Code/cancelled`` with `cancelled` for no answer.
    func line(_ prompt: String, cancelled: String) throws(SwaggerError) -> String
    /// Asks a question whose answer is yes unless the person says no: Enter alone is yes (`[Y/n]`).
    /// - Throws: ``SwaggerError/Code/cancelled`` with `cancelled` for no answer at all (end of input).
    func confirm(_ question: String, cancelled: String) throws(SwaggerError) -> Bool
    /// Asks for a secret, echo off.
    /// - Throws: ``SwaggerError/Code/cancelled`` with `cancelled` for no answer; ``SwaggerError/Code/usage`` off a
    ///   terminal.
    func secret(_ prompt: String, cancelled: String) throws(SwaggerError) -> String
    /// The whole of standard input, less one trailing line break, as a secret that `flag` reads (`--password-stdin`
    /// reads a "password").
    /// - Throws: ``SwaggerError/Code/usage`` for an empty input, or one too large to be a secret.
    func standardInput(flag: String, secret: String) throws(SwaggerError) -> String
    /// Runs `work`, showing `label` while it waits on a request where there is somewhere to show it, unless `shown`
    /// is off (`--quiet`); `work` passes the line it is given to the API service as its delegate.
    func working<Result: Sendable>(
        _ label: String, shown: Bool, _ work: ((any ProgressLine)?) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result
}

/// The line that says what a command is waiting for while a request is in flight: the terminal's spinner.
package protocol ProgressLine: APIServiceDelegate, AnyObject {
    /// What it says; a flow changes it as it moves from one request to the next.
    var label: String { get set }
    /// A request started (`true`) or finished (`false`).
    func waiting(_ isWaiting: Bool)
}

extension ProgressLine {
    package func apiService(_ service: APIService, isWaiting: Bool) { waiting(isWaiting) }
}

extension Console {
    /// How a table is drawn on standard output: its keys dimmed where there is colour, fitted to the width.
    package var tableRenderer: TableRenderer {
        TableRenderer(style: colourEnabled ? .dimmedKeys : .plain, columns: columns)
    }

    /// A problem that does not stop the command, on standard error.
    package func warning(_ text: String) { notice("swaggerctl: warning: \(text)") }

    /// A failure that the command reports and goes past, on standard error.
    package func error(_ text: String) { notice("swaggerctl: \(text)") }

    /// ``working(_:shown:_:)``, shown.
    package func working<Result: Sendable>(
        _ label: String, _ work: ((any ProgressLine)?) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        try await working(label, shown: true, work)
    }

    /// ``standardInput(flag:secret:)`` for `--password-stdin`.
    package func password() throws(SwaggerError) -> String {
        try standardInput(flag: "--password-stdin", secret: "password")
    }

    /// Goes on only when the person at the terminal says yes to `question`, after `notice`; any other answer is
    /// `cancelled`, and off a terminal it is `refusal`. No request is in flight meanwhile, so no progress line shares
    /// the line.
    package func consent(notice: String, question: String, cancelled: String, refusal: SwaggerError)
        throws(SwaggerError)
    {
        guard canAsk, errorIsTerminal else { throw refusal }
        self.notice(notice)
        let answer = try line(question, cancelled: cancelled)
        guard ["y", "yes"].contains(answer.lowercased()) else { throw SwaggerError(.cancelled, cancelled) }
    }

    /// Goes on with a change of description that sends sessions' tokens to other origins (`move`) only with
    /// `--yes` (`yes`), or when the person at the terminal says so; off a terminal, it is refused.
    package func consent(to move: SessionController.TokenMove?, yes: Bool) throws(SwaggerError) {
        guard let move, !yes else { return }
        try consent(
            notice: move.notice, question: "Go on? [y/N] ", cancelled: "Nothing was saved.", refusal: move.refusal)
    }
}

/// The person's web browser, which a browser or device login opens at the server's page.
package protocol BrowserOpener: Sendable {
    /// Whether there is one to open: `$BROWSER`, or a desktop's opener.
    var isAvailable: Bool { get }
    /// Opens `url`, by way of a ``BrowserPage`` in `folder`; `exited` hears of a browser that failed after it
    /// started.
    func open(_ url: URL, folder: URL, exited: @escaping @Sendable (String) -> Void) -> BrowserOpening
}

/// How starting the browser went.
package enum BrowserOpening: Sendable {
    /// It was started; a failure later is told to `exited`.
    case started
    /// There is none to start, such as over SSH: the address is only printed.
    case none
    /// It could not be started: the program and the system's reason.
    case failed(String)
}
