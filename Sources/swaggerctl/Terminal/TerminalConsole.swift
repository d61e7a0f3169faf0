import FoundationEssentials
import Glibc
import SwaggerClient
import SwaggerModel

/// The console of a command run from the shell: standard output and error, the prompt on the terminal, and the
/// spinner while a request is in flight.
struct TerminalConsole: Console {
    func print(_ text: String) { Terminal.print(text) }

    func write(_ bytes: Data) { Terminal.standardOutput.write(bytes) }

    func notice(_ text: String) { Terminal.notice(text) }

    var outputIsTerminal: Bool { Terminal.isTerminal(STDOUT_FILENO) }

    var colourEnabled: Bool { Terminal.stdoutSupportsColor }

    var columns: Int? { Terminal.columns }

    var canAsk: Bool { Terminal.isTerminal(STDIN_FILENO) }

    var errorIsTerminal: Bool { Terminal.isTerminal(STDERR_FILENO) }

    func line(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        try Prompt.line(prompt, cancelled: cancelled)
    }

    func confirm(_ question: String, cancelled: String) throws(SwaggerError) -> Bool {
        try Prompt.confirm(question, cancelled: cancelled)
    }

    func secret(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        try Prompt.secret(prompt, cancelled: cancelled)
    }

    func standardInput(flag: String, secret: String) throws(SwaggerError) -> String {
        try Prompt.standardInput(flag: flag, secret: secret)
    }

    func working<Result: Sendable>(
        _ label: String, shown: Bool, _ work: ((any ProgressLine)?) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        try await Spinner.run(label, enabled: shown, work)
    }
}

extension CommandEnvironment {
    /// This process's environment variables and terminal, over the network and the configured token store.
    static var terminal: CommandEnvironment {
        let variables = ProcessInfo.processInfo.environment
        return CommandEnvironment(
            variables: variables, console: TerminalConsole(), browser: EnvironmentBrowser(environment: variables))
    }
}
