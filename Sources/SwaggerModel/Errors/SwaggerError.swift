/// A failure that swaggerctl reports to the person at the terminal.
///
/// Every error that leaves ``SessionController`` is a `SwaggerError`. Its ``message`` is one plain sentence
/// that says what happened and what to do next, and never contains a secret. Its ``code`` says which kind
/// of failure it was; the command-line tool turns each code into a documented exit status.
package struct SwaggerError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: Sendable, Hashable, CaseIterable {
        /// Anything not covered by a more specific code, such as a corrupt file or a rejected request.
        case failure
        /// The server could not be reached: refused, unresolvable, timed out, or a TLS failure.
        case network
        /// Bad credentials, no stored session, or a token that the server rejected.
        case authentication
        /// The server failed (HTTP 5xx) or sent a body that does not match the API.
        case server
        /// The command line or the environment asked for something that cannot work.
        case usage
        /// The person cancelled a prompt: Ctrl-C, Ctrl-D, or an empty answer.
        case cancelled
        /// `exec`'s command was not found in `PATH`.
        case commandNotFound
        /// `exec`'s command was found but cannot be run: not executable, or not a program.
        case commandNotRunnable
    }

    package var code: Code

    /// One sentence for people: what happened and what to do next.
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
