import Dispatch
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
    /// process is interrupted (Ctrl-C), terminated or hung up while waiting: the handler puts the settings
    /// back and then lets the signal take its default course.
    static func secret(_ prompt: String) throws(SwaggerError) -> String {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw SwaggerError(.usage, "Standard input is not a terminal. Pipe the password in with --password-stdin.")
        }
        let saved = original
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var restore = saved
                tcsetattr(STDIN_FILENO, TCSANOW, &restore)
                FileHandle.standardError.write(Data("\n".utf8))
                signal(number, SIG_DFL)
                raise(number)
            }
            source.resume()
            return source
        }
        defer {
            var restore = saved
            tcsetattr(STDIN_FILENO, TCSANOW, &restore)
            for (number, source) in zip(signals, sources) {
                source.cancel()
                signal(number, SIG_DFL)
            }
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

    /// Reads the password from standard input, for scripts: everything up to end of input, less one trailing
    /// line break.
    static func standardInput() throws(SwaggerError) -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        if text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else {
            throw SwaggerError(.usage, "--password-stdin was given, but standard input was empty.")
        }
        return text
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
