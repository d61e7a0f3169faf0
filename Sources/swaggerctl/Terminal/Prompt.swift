import Foundation
import SwaggerClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the person at the terminal for input on standard input.
enum Prompt {
    /// Reads one line with echo on, after writing `prompt` to standard error.
    static func line(_ prompt: String) throws(SwaggerError) -> String {
        Terminal.standardError.write(prompt)
        guard let line = readLine(from: STDIN_FILENO) else {
            Terminal.standardError.write("\n")
            throw SwaggerError(.failure, "Login cancelled: no input.")
        }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw SwaggerError(.usage, "No e-mail given. Pass one with --email.") }
        return trimmed
    }

    /// Reads one line with echo off. The terminal's settings are restored afterwards, and also when the
    /// process is interrupted (Ctrl-C), terminated, hung up or quit while waiting: a signal handler puts the
    /// settings back and then re-raises the signal with its default action, as `readpassphrase(3)` does.
    static func secret(_ prompt: String) throws(SwaggerError) -> String {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw SwaggerError(.usage, "Standard input is not a terminal. Pipe the password in with --password-stdin.")
        }
        savedTerminal = original
        let previous = interruptingSignals.map { signal($0, restoreTerminalAndReraise) }
        defer {
            var restore = original
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore)
            for (number, handler) in zip(interruptingSignals, previous) { signal(number, handler) }
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        Terminal.standardError.write(prompt)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else {
            throw SwaggerError(.failure, "Could not turn off echo on the terminal.")
        }
        guard let password = readLine(from: STDIN_FILENO), !password.isEmpty else {
            throw SwaggerError(.failure, "Login cancelled: no password given.")
        }
        return password
    }

    /// The most `--password-stdin` reads: far more than any password, and a bound on `< /dev/zero`.
    static let passwordLimit = 64 * 1024

    /// Reads the password from standard input, for scripts: everything up to end of input, less one trailing
    /// line break (`\n` or `\r\n`), and at most ``passwordLimit`` bytes.
    static func standardInput() throws(SwaggerError) -> String {
        var bytes = readBytes(upTo: passwordLimit + 1, from: STDIN_FILENO)
        guard bytes.count <= passwordLimit else {
            throw SwaggerError(
                .usage,
                "--password-stdin read more than \(passwordLimit / 1024) KiB, which is no password. Pipe in "
                    + "the password alone.")
        }
        // Bytes, not Characters: in Swift "\r\n" is one Character, so a check for "\n" would miss it.
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw SwaggerError(.usage, "--password-stdin was given, but standard input was empty.")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads until end of input or `limit` bytes, whichever comes first.
    private static func readBytes(upTo limit: Int, from descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = Glibc.read(descriptor, &buffer, min(buffer.count, limit - bytes.count))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// Reads bytes up to a newline; `nil` at end of input before any byte.
    private static func readLine(from descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The signals that end a process waiting at the password prompt.
private let interruptingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// The settings to put back if a signal arrives while echo is off. Written only before the handlers are
/// installed, and read only by them.
nonisolated(unsafe) private var savedTerminal = termios()

/// Restores the terminal and re-raises the signal with its default action. Calls only async-signal-safe
/// functions.
private func restoreTerminalAndReraise(_ number: Int32) {
    tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal)
    _ = withUnsafePointer(to: UInt8(ascii: "\n")) { write(STDERR_FILENO, $0, 1) }
    signal(number, SIG_DFL)
    raise(number)
}
