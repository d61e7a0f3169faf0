import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `swaggerctl` running on a pseudo-terminal that is its controlling terminal (through `setsid --ctty`), so
/// that prompts, echo, colour and Ctrl-C behave as they do for a person at a keyboard.
final class PseudoTerminalProcess: @unchecked Sendable {
    private let master: Int32
    private let process: Process
    private(set) var transcript = ""

    init(_ arguments: [String], environment: [String: String]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw Failure("openpty failed") }
        self.master = master
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process = Process()
        process.executableURL = URL(filePath: "/usr/bin/setsid")
        process.arguments = ["--ctty", "--wait", Binaries.swaggerctl.path] + arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.runWithDefaultSignalMask()
        close(slave)
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Whether the terminal echoes input now.
    var echoes: Bool {
        var settings = termios()
        tcgetattr(master, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` as if at the keyboard.
    func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Reads until the transcript contains `text`, or fails after `timeout`.
    func read(until text: String, timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while !transcript.contains(text) {
            guard ContinuousClock.now < deadline else { throw Failure("no \"\(text)\" in: \(transcript)") }
            guard readAvailable(milliseconds: 100) else { throw Failure("ended before \"\(text)\": \(transcript)") }
        }
    }

    /// Reads until the program exits and returns its status.
    func finish(timeout: Duration = .seconds(15)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while readAvailable(milliseconds: 100) {
            guard ContinuousClock.now < deadline else { throw Failure("still running: \(transcript)") }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Returns `false` once the terminal is closed (every process using it has exited).
    private func readAvailable(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        transcript += String(decoding: buffer[..<count], as: UTF8.self)
        return true
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension Sandbox {
    /// Starts `swaggerctl` on a pseudo-terminal, off the threads that async tests share.
    func onTerminal(_ arguments: String..., environment extra: [String: String] = [:]) async throws
        -> PseudoTerminalProcess
    {
        let environment = environment.merging(["TERM": "xterm-256color"]) { $1 }.merging(extra) { $1 }
        return try await onDedicatedThread { try PseudoTerminalProcess(arguments, environment: environment) }
    }
}
