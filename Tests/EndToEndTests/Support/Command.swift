import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// What a finished process left behind.
struct CommandResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// The value of a key/value table's row on standard output, as `status` prints it, whatever the table's width.
    func row(_ key: String) -> String? {
        for line in stdout.split(separator: "\n") where line.hasPrefix(key + " ") {
            return line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Where a step of `server show` goes, and where that came from: the URL of its row's request (`Login`,
    /// `Refresh`, `Logout`, `Profile`) and the row's last parenthesised source, `(given)` or `(from …)`; a row that
    /// is no request (`none: logout is local only`) as it is.
    func stepURL(_ key: String) -> String? {
        guard let row = row(key) else { return nil }
        let words = row.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].allSatisfy(\.isUppercase) else { return row }
        let source =
            ["(given)"].first(where: row.hasSuffix)
            ?? row.range(of: " (from ", options: .backwards).map { String(row[row.index(after: $0.lowerBound)...]) }
        return String(words[1]) + (source.map { " " + $0 } ?? "")
    }
}

/// Bounds on waiting for a child process. They only stop a hung child from hanging the suite: each is many
/// times what the slowest child takes on a busy two-core machine, and no test measures anything with them.
enum Deadline {
    /// From a command's start to its exit.
    static let command: Duration = .seconds(180)
    /// From a server's start to the line that says it is ready.
    static let start: Duration = .seconds(180)
    /// From SIGTERM to a server's exit, after which its whole process group gets SIGKILL.
    static let stop: Duration = .seconds(20)
}

/// A child that outlived its deadline, and was killed.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var description: String
}

/// Runs `work`, cancelling it after `limit`. Cancelling a `Subprocess.run` kills its child, and `run` returns
/// only once the child is reaped.
func within<Value: Sendable>(
    _ limit: Duration, _ what: @autoclosure () -> String, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let described = what()
    return try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(description: "\(described) did not finish within \(limit); it was killed")
        }
        return value
    }
}

/// Runs a program to completion, feeding `stdin` and collecting both outputs; killed after
/// ``Deadline/command``.
func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String], stdin: String? = nil
) async throws -> CommandResult {
    let configuration = Configuration(
        executable: .path(FilePath(executable.path)), arguments: Arguments(arguments),
        environment: .custom(environment.subprocessEnvironment))
    let limit = 64 << 20
    // Standard input is a file of its own rather than a pipe that Subprocess writes: its writer fails fatally
    // when the child exits without reading (1.0.2), which a usage error does.
    let input = try stdin.map(inputFile) ?? FileDescriptor.open("/dev/null", .readOnly, options: .closeOnExec)
    return try await within(Deadline.command, "\(executable.lastPathComponent) \(arguments.joined(separator: " "))") {
        let result = try await run(
            configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: true),
            output: .string(limit: limit), error: .string(limit: limit))
        return CommandResult(
            status: result.terminationStatus.shellStatus, stdout: result.standardOutput,
            stderr: result.standardError)
    }
}

/// Runs Debian's curl with `arguments`, quietly but for errors: how a test talks to a server outside swaggerctl.
func curl(_ arguments: [String]) async throws -> CommandResult {
    try await runProgram(
        URL(filePath: "/usr/bin/curl"), ["--silent", "--show-error"] + arguments, environment: ["PATH": "/usr/bin:/bin"]
    )
}

/// A read-only descriptor of a file that holds `text` and has no name left.
private func inputFile(_ text: String) throws -> FileDescriptor {
    let path = FilePath(FileManager.default.temporaryDirectory.appending(path: "stdin-\(UUID().uuidString)").path)
    let writer = try FileDescriptor.open(
        path, .writeOnly, options: [.create, .exclusiveCreate], permissions: [.ownerReadWrite])
    defer { try? writer.close() }
    _ = try writer.writeAll(Array(text.utf8))
    let reader = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
    try? FileManager.default.removeItem(atPath: path.string)
    return reader
}

/// Runs `body` while a long-lived child (a server, a private bus) runs, once it has printed `readyLines` lines
/// on standard output, which `body` gets. The child starts in a session of its own, and is ended with
/// everything it started, also when `body` throws: SIGTERM to its process group, then SIGKILL after
/// ``Deadline/stop``. Its standard error goes to `log` when given.
func withChildProcess<Result: Sendable>(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, log: URL? = nil,
    readyLines: Int = 1, _ body: ([String]) async throws -> Result
) async throws -> Result {
    var options = PlatformOptions()
    options.createSession = true
    options.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: Deadline.stop)]
    let configuration = Configuration(
        executable: .path(FilePath(executable.path)), arguments: Arguments(arguments),
        environment: environment.map { .custom($0.subprocessEnvironment) } ?? .inherit, platformOptions: options)
    let name = executable.lastPathComponent
    let errors: FileDescriptorOutput
    if let log {
        errors = .fileDescriptor(
            try FileDescriptor.open(
                FilePath(log.path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite]),
            closeAfterSpawningProcess: true)
    } else {
        errors = .fileDescriptor(
            try FileDescriptor.open("/dev/null", .writeOnly, options: .closeOnExec), closeAfterSpawningProcess: true)
    }
    let outcome = try await run(configuration, input: .none, output: .sequence, error: errors) { execution in
        // At the deadline the child is killed, which ends its output and so the reading.
        let lines = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var lines: [String] = []
                for try await line in execution.standardOutput.strings() {
                    lines.append(line)
                    if lines.count == readyLines { break }
                }
                return lines
            }
            group.addTask {
                try await Task.sleep(for: Deadline.start)
                await execution.teardown(using: [])
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        do {
            guard let lines, lines.count == readyLines else {
                throw StartFailure(
                    description: "\(name) was not ready within \(Deadline.start), or exited first; it printed "
                        + "\(lines ?? [])")
            }
            let result = try await body(lines)
            await execution.teardown(using: options.teardownSequence)
            return result
        } catch {
            await execution.teardown(using: options.teardownSequence)
            throw error
        }
    }
    return outcome.closureResult
}

/// A child that did not start as expected.
struct StartFailure: Error, CustomStringConvertible {
    var description: String
}

/// A test helper that could not do what the test asked of it, with what it saw.
struct SupportFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Dictionary where Key == String, Value == String {
    fileprivate var subprocessEnvironment: [Environment.Key: String] {
        Dictionary<Environment.Key, String>(
            uniqueKeysWithValues: compactMap { key, value in Environment.Key(rawValue: key).map { ($0, value) } })
    }
}

extension TerminationStatus {
    /// The status as a shell's `$?` shows it: the exit code, or 128 plus the number of the signal that ended it.
    var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}
