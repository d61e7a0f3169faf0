import FoundationEssentials
import SwaggerClient
import SwaggerModel
import SwaggerOutput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the person at the terminal for input on standard input.
///
/// Every way of cancelling a prompt ends the same way: the prompt's line is ended, one `swaggerctl: … cancelled`
/// line follows, and the exit status is 130. Ctrl-D and an empty answer throw ``SwaggerError/Code/cancelled``,
/// which exits 130; Ctrl-C ends the process by SIGINT after the same line, which a shell reports as 130, so that
/// a calling script's loop stops too.
enum Prompt {
    /// Reads one line with echo on, after writing `prompt` to standard error.
    static func line(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        let answer = try asking(prompt, cancelled: cancelled, echo: true) { readLine(from: STDIN_FILENO) }
        if !answer.endedLine { Terminal.standardError.write("\n") }
        let trimmed = answer.text?.trimmingWhitespace() ?? ""
        guard !trimmed.isEmpty else { throw SwaggerError(.cancelled, cancelled) }
        return trimmed
    }

    /// Asks `question`, whose answer is yes unless it starts with `n`: Enter alone is yes. End of input is no
    /// answer, and cancels.
    static func confirm(_ question: String, cancelled: String) throws(SwaggerError) -> Bool {
        let answer = try asking(question, cancelled: cancelled, echo: true) { readLine(from: STDIN_FILENO) }
        if !answer.endedLine { Terminal.standardError.write("\n") }
        guard let text = answer.text, answer.endedLine else { throw SwaggerError(.cancelled, cancelled) }
        return !text.trimmingWhitespace().lowercased().hasPrefix("n")
    }

    /// Reads one line with echo off, after writing `prompt` to standard error.
    static func secret(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        let answer = try asking(prompt, cancelled: cancelled, echo: false) { readLine(from: STDIN_FILENO) }
        // With echo off, the terminal shows the line break only for Enter (ECHONL), never for Ctrl-D.
        if !answer.endedLine { Terminal.standardError.write("\n") }
        // Only Enter submits: Ctrl-D after a few characters hands them over without a line break, and a
        // password half typed is not the one meant.
        guard answer.endedLine, let text = answer.text, !text.isEmpty else {
            throw SwaggerError(.cancelled, cancelled)
        }
        return text
    }

    /// The most `--password-stdin` and `--with-token` read: far more than any password or token, and a bound on
    /// `< /dev/zero`.
    static let passwordLimit = 64 * 1024

    /// Reads a secret from standard input, for scripts: everything up to end of input, less one trailing line
    /// break (`\n` or `\r\n`), and at most ``passwordLimit`` bytes. On a terminal, echo is off meanwhile.
    /// - Parameters:
    ///   - flag: The option that reads it, for the errors: `--password-stdin`, `--with-token`.
    ///   - secret: What it reads, as the errors name it: "password", "token".
    static func standardInput(flag: String = "--password-stdin", secret: String = "password") throws(SwaggerError)
        -> String
    {
        var bytes =
            Terminal.isTerminal(STDIN_FILENO)
            ? try asking(nil, cancelled: "Login cancelled: no \(secret) given.", echo: false) {
                readBytes(upTo: passwordLimit + 1, from: STDIN_FILENO)
            }
            : readBytes(upTo: passwordLimit + 1, from: STDIN_FILENO)
        guard bytes.count <= passwordLimit else {
            throw SwaggerError(
                .usage,
                "\(flag) read more than \(passwordLimit / 1024) KiB, which is no \(secret). Pipe in the \(secret) "
                    + "alone.")
        }
        // Bytes, not Characters: in Swift "\r\n" is one Character, so a check for "\n" would miss it.
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw SwaggerError(.usage, "\(flag) was given, but standard input was empty.")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `prompt` and runs `body`, which reads from the terminal, with echo as asked. The terminal's
    /// settings are restored afterwards, and also when the process is interrupted (Ctrl-C), terminated, hung up
    /// or quit meanwhile: a signal handler puts them back, ends the line, says the prompt was cancelled, and
    /// re-raises the signal with its default action, as `readpassphrase(3)` does.
    ///
    /// A prompt turns echo off before it shows, discarding what was typed earlier, as `readpassphrase(3)` does:
    /// keys pressed before the question are not its answer, and an answer typed after it must not be discarded.
    /// `--password-stdin` shows no prompt, so what was typed ahead of it is its input, and is kept.
    private static func asking<Value>(
        _ prompt: String?, cancelled: String, echo: Bool, _ body: () -> Value
    ) throws(SwaggerError) -> Value {
        var original = termios()
        let onTerminal = tcgetattr(STDIN_FILENO, &original) == 0
        guard onTerminal || echo else {
            throw SwaggerError(.usage, "Standard input is not a terminal. Pipe the password in with --password-stdin.")
        }
        // Built here because a signal handler may not allocate.
        interruption = Interruption(
            terminal: onTerminal ? original : nil,
            line: Array(("\n" + TerminalText.escaped("swaggerctl: \(interrupted(cancelled))") + "\n").utf8))
        let previous = interruptingSignals.map { signal($0, restoreTerminalAndReraise) }
        defer {
            if onTerminal {
                var restore = original
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore)
            }
            for (number, handler) in zip(interruptingSignals, previous) { signal(number, handler) }
        }
        if !echo {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            guard tcsetattr(STDIN_FILENO, prompt == nil ? TCSANOW : TCSAFLUSH, &silent) == 0 else {
                throw SwaggerError(.failure, "Could not turn off echo on the terminal.")
            }
        }
        if let prompt { Terminal.standardError.write(prompt) }
        return body()
    }

    /// What Ctrl-C at a prompt says: `cancelled` without the reason after its colon, which is an empty answer's
    /// ("Login cancelled: no password given." is "Login cancelled."): the person pressed a key, and gave nothing
    /// by mistake.
    static func interrupted(_ cancelled: String) -> String {
        guard let colon = cancelled.firstRange(of: ": ") else { return cancelled }
        return cancelled[..<colon.lowerBound] + "."
    }

    /// Reads bytes up to a newline. `text` is `nil` at end of input before any byte; `endedLine` says whether a
    /// newline ended it, so that a message after Ctrl-D can start on a line of its own.
    private static func readLine(from descriptor: Int32) -> (text: String?, endedLine: Bool) {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return (bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self), false) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return (String(decoding: bytes, as: UTF8.self), true)
    }

    /// Reads until end of input or `limit` bytes, whichever comes first.
    /// What `descriptor` gives up to its end, `limit` bytes, or until `done` says the bytes so far are enough.
    static func readBytes(
        upTo limit: Int, from descriptor: Int32, until done: ([UInt8]) -> Bool = { _ in false }
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit, !done(bytes) {
            let count = Glibc.read(descriptor, &buffer, min(buffer.count, limit - bytes.count))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}

/// The signals that end a process waiting at the password prompt.
private let interruptingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// What a signal handler needs while a prompt waits: the terminal settings to put back, if any, and the line
/// that says the prompt was cancelled.
private struct Interruption {
    var terminal: termios?
    var line: [UInt8]
}

/// Written only before the handlers are installed, and read only by them.
nonisolated(unsafe) private var interruption = Interruption(terminal: nil, line: [])

/// Restores the terminal, ends the prompt's line with the cancellation message, and re-raises the signal with
/// its default action. Calls only async-signal-safe functions, and allocates nothing.
private func restoreTerminalAndReraise(_ number: Int32) {
    if var terminal = interruption.terminal { tcsetattr(STDIN_FILENO, TCSANOW, &terminal) }
    _ = interruption.line.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    signal(number, SIG_DFL)
    raise(number)
}
