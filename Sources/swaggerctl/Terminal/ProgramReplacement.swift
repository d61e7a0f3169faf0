import CSpawn
import Glibc
import SwaggerClient
import SwaggerModel
import SwaggerOutput

/// `exec`'s last step: this process becomes the person's command, as `env` and `aws-vault exec` do, so that its
/// exit status, signals and standard streams are the command's own and no swaggerctl is left waiting.
enum ProgramReplacement {
    /// Runs `command` in place of this process, with this process's environment and `variables` set over it: the
    /// file ``ProgramSearch`` finds, as `execve(2)` runs it, never through a shell, so a script without `#!` is
    /// refused rather than given to `/bin/sh`. It returns only when the command could not be run.
    ///
    /// - Returns: What stopped it: not found (a shell's 127) or not runnable (126).
    static func replace(with command: [String], setting variables: [(name: String, value: String)]) -> SwaggerError {
        let environment = self.environment(setting: variables)
        let name = TerminalText.escaped(command[0])
        let notFound = SwaggerError(.commandNotFound, "\(name): command not found; check the name and PATH.")
        guard let program = program(named: command[0], path: getenv("PATH").map { String(cString: $0) }) else {
            return notFound
        }
        inheritNothing()
        // C strings for execve, each array ending in a null pointer; freed only if the exec fails.
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let status = execve(program, argv, envp)
        let error = errno
        precondition(status == -1, "execve returns only when it fails")
        switch error {
        case ENOENT:
            return notFound
        case ENOEXEC:
            return SwaggerError(
                .commandNotRunnable,
                "\(name) cannot be run: it is neither a program nor a script with a #! line, and swaggerctl runs no shell."
            )
        default:
            return SwaggerError(.commandNotRunnable, "\(name) cannot be run: \(String(cString: strerror(error))).")
        }
    }

    /// The first of ``ProgramSearch``'s candidates that is an executable file, as `command -v` takes it; else the
    /// first that exists, for `execve` to say why it cannot be run; `nil` when none does.
    private static func program(named name: String, path: String?) -> String? {
        let candidates = ProgramSearch.candidates(for: name, path: path)
        func isProgram(_ file: String) -> Bool {
            var status = stat()
            return stat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(file, X_OK) == 0
        }
        return candidates.first(where: isProgram) ?? candidates.first { access($0, F_OK) == 0 }
    }

    /// `NAME=value` entries: this process's, in their order, without the names set here, then those set here.
    private static func environment(setting variables: [(name: String, value: String)]) -> [String] {
        let replaced = Set(variables.map(\.name))
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = text.prefix { $0 != "=" }
            if !replaced.contains(String(name)) { entries.append(text) }
            cursor += 1
        }
        return entries + variables.map { "\($0.name)=\($0.value)" }
    }

    /// Leaves the command only what it should inherit: the standard streams, every signal unblocked, and the
    /// signals swaggerctl handles at their defaults. The descriptors of the keyring's D-Bus connection, the
    /// refresh lock and NIO's sockets stay open until the exec, which then closes them.
    private static func inheritNothing() {
        if swaggerctl_cloexec_from(3) != 0 {
            markEachCloseOnExec()
        }
        // The command loop's thread may run with signals blocked, which the command would inherit.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // A handler is reset by exec, but an ignored signal stays ignored, and NIO ignores SIGPIPE for the whole
        // process: the command would not end when the reader of its pipe does (`yes | head`). A SIGPIPE that was
        // ignored when swaggerctl started is the caller's wish, and stays.
        if !InheritedSignals.pipeIgnoredAtStart { signal(SIGPIPE, SIG_DFL) }
    }

    /// close_range's work on kernels without it: each open descriptor from 3 up, as /proc lists them.
    private static func markEachCloseOnExec() {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let descriptor = Int32(name), descriptor > 2, descriptor != own else { continue }
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
    }
}

/// Whether SIGPIPE was ignored when the process started, read before NIO ignores it.
enum InheritedSignals {
    nonisolated(unsafe) private(set) static var pipeIgnoredAtStart = false

    /// Called first thing in `main`.
    static func record() {
        var action = sigaction()
        guard sigaction(SIGPIPE, nil, &action) == 0 else { return }
        // Handlers are C function pointers, which Swift compares only as the addresses they are.
        pipeIgnoredAtStart =
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
