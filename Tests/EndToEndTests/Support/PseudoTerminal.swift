import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `swaggerctl` running on a pseudo-terminal that is its controlling terminal, so that prompts, echo, colour and
/// Ctrl-C behave as they do for a person at a keyboard.
///
/// The process is spawned directly, in a session of its own that opens the terminal (which makes it the
/// controlling one), rather than through `setsid --wait`: that reports a child killed by a signal as its own
/// failure, and a test needs to see the signal.
final class PseudoTerminalProcess: @unchecked Sendable {
    private let master: Int32
    private let pid: pid_t
    private var status: Int32?
    private(set) var transcript = ""

    /// Starts `program` (`swaggerctl` unless given) with `arguments`; `typedAhead` is typed before it starts,
    /// and waits in the terminal's input.
    init(
        _ arguments: [String], environment: [String: String], typedAhead: String = "",
        program: URL = Binaries.swaggerctl
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw SupportFailure("openpty failed") }
        // The child opens the terminal by name; the parent's copy closes, so that the master reads end of file
        // once the child and everything it started have exited.
        guard let terminalName = ttyname(slave) else { throw SupportFailure("ttyname failed") }
        let name = String(cString: terminalName)
        close(slave)
        self.master = master
        if !typedAhead.isEmpty {
            _ = typedAhead.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        // A new session, no signal blocked and every signal at its default action, as a login shell starts a
        // program; the test runner's threads block nearly every signal.
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        // The test runner's other descriptors (pipes of other tests' processes) stay out of the child.
        guard closeFrom(&actions, 3) == 0 else {
            throw SupportFailure("posix_spawn_file_actions_addclosefrom_np failed")
        }

        let path = program.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard error == 0 else {
            close(master)
            throw SupportFailure("posix_spawn \(path): \(String(cString: strerror(error)))")
        }
        self.pid = pid
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
        }
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

    /// Reads until the transcript contains `text`, failing if the program ends first.
    func read(until text: String) throws {
        guard try shows(text) else { throw SupportFailure("ended before \"\(text)\": \(transcript)") }
    }

    /// Reads until the transcript contains `text` (`true`) or the program has ended without showing it
    /// (`false`). Fails only at ``Deadline/command``, a bound for a hung program, so that a slow machine is
    /// never mistaken for a program that did not show it.
    func shows(_ text: String) throws -> Bool {
        let deadline = ContinuousClock.now + Deadline.command
        while !transcript.contains(text) {
            guard ContinuousClock.now < deadline else { throw SupportFailure("no \"\(text)\" in: \(transcript)") }
            guard readAvailable(milliseconds: 100) else { return false }
        }
        return true
    }

    /// Waits until the program has turned echo off, as it does before it reads a secret.
    func waitUntilEchoIsOff() throws {
        let deadline = ContinuousClock.now + Deadline.command
        while echoes {
            guard ContinuousClock.now < deadline else { throw SupportFailure("echo never went off: \(transcript)") }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Waits for `prompt`, types `keys`, and reads until the program exits, off the threads that async tests
    /// share.
    /// - Returns: The status, as ``finish()`` gives it.
    func answer(_ prompt: String, with keys: String) async throws -> Int32 {
        try await answer([(prompt, keys)])
    }

    /// Answers each prompt in turn, as ``answer(_:with:)`` answers one.
    func answer(_ exchanges: [(prompt: String, keys: String)]) async throws -> Int32 {
        try await onDedicatedThread {
            for (prompt, keys) in exchanges {
                try self.read(until: prompt)
                self.type(keys)
            }
            return try self.finish()
        }
    }

    /// Reads until the program exits, and returns its status as a shell's `$?` shows it: the exit code, or
    /// 128 plus the number of the signal that ended it. Fails if it is still running at ``Deadline/command``.
    func finish() throws -> Int32 {
        let deadline = ContinuousClock.now + Deadline.command
        while readAvailable(milliseconds: 100) {
            guard ContinuousClock.now < deadline else { throw SupportFailure("still running: \(transcript)") }
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        // WIFEXITED, WEXITSTATUS and WTERMSIG are C macros that Swift does not import.
        let signal = raw & 0x7F
        let shellStatus = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        status = shellStatus
        return shellStatus
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
}

extension Sandbox {
    /// Starts `swaggerctl` on a pseudo-terminal, off the threads that async tests share.
    func onTerminal(_ arguments: String..., environment extra: [String: String] = [:], typedAhead: String = "")
        async throws -> PseudoTerminalProcess
    {
        try await onTerminal(arguments, environment: extra, typedAhead: typedAhead)
    }

    func onTerminal(_ arguments: [String], environment extra: [String: String] = [:], typedAhead: String = "")
        async throws -> PseudoTerminalProcess
    {
        let environment = environment.merging(["TERM": "xterm-256color"]) { $1 }.merging(extra) { $1 }
        return try await onDedicatedThread {
            try PseudoTerminalProcess(arguments, environment: environment, typedAhead: typedAhead)
        }
    }
}

/// glibc's `POSIX_SPAWN_SETSID` and `posix_spawn_file_actions_addclosefrom_np` are GNU extensions that Swift's
/// Glibc module does not import; both are in glibc since 2.26 and 2.34.
private let spawnSetSID: Int32 = 0x80

private let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { fatalError("glibc 2.34 or later is needed for posix_spawn_file_actions_addclosefrom_np") }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()
