import CSpawn
import FoundationEssentials
import SwaggerClient
import SwaggerModel
import SwaggerOutput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard streams and what kind of terminal, if any, sits behind them.
enum Terminal {
    static let standardError = Stream(descriptor: STDERR_FILENO)
    static let standardOutput = Stream(descriptor: STDOUT_FILENO)

    /// An output stream. A write that fails (a full disk) loses its text, as `print` does; but when standard
    /// output's reader has gone (`swaggerctl api … --paginate | head`), the command ends there, as `yes | head` ends,
    /// rather than fetch the rest of a list for no one.
    struct Stream: Sendable {
        let descriptor: Int32

        func write(_ text: String) {
            // From the string's own storage: `Data(text.utf8)` would first ask the runtime whether the view is
            // `ContiguousBytes`, and a process's first such question reads every protocol conformance record.
            var text = text
            text.withUTF8 { write(Data(buffer: $0)) }
        }

        func write(_ data: Data) {
            if CommandProcess.write(data, to: descriptor) == EPIPE, descriptor == STDOUT_FILENO {
                Terminal.readerGone()
            }
        }
    }

    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Ends the process as SIGPIPE ends one whose reader has gone, quietly; NIO ignores the signal, so the write
    /// only failed. When SIGPIPE was ignored already as the command started, the caller wants the failure instead:
    /// exit 1, with nothing more said, since no one reads it.
    static func readerGone() -> Never {
        if !InheritedSignals.pipeIgnoredAtStart {
            signal(SIGPIPE, SIG_DFL)
            // The command loop's thread may run with signals blocked.
            var pipe = sigset_t()
            sigemptyset(&pipe)
            sigaddset(&pipe, SIGPIPE)
            pthread_sigmask(SIG_UNBLOCK, &pipe, nil)
            raise(SIGPIPE)
        }
        exit(1)
    }

    /// Colour on standard output: a terminal, `NO_COLOR` unset, and not `TERM=dumb`.
    static var stdoutSupportsColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        guard isTerminal(STDOUT_FILENO), environment["NO_COLOR"].map(\.isEmpty) ?? true else { return false }
        return environment["TERM"] != "dumb"
    }

    /// Standard output's terminal width in columns: `COLUMNS` when set, as a shell sets it, else the
    /// terminal's own; `nil` when standard output is not a terminal.
    static var columns: Int? {
        guard isTerminal(STDOUT_FILENO) else { return nil }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    static func print(_ text: String) {
        standardOutput.write(text)
    }

    /// Writes one notice line to standard error. Like every line to stderr, it goes through
    /// ``TerminalText/escaped(_:)``: it may quote a server, and it stays one line.
    static func notice(_ text: String) {
        standardError.write(TerminalText.escaped(text) + "\n")
    }

    /// Writes one error line to standard error: `swaggerctl: <text>`.
    static func error(_ text: String) {
        notice("swaggerctl: \(text)")
    }
}
