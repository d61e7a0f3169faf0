import ArgumentParser
import CSpawn
import FoundationEssentials
import Glibc
import SwaggerClient
import SwaggerModel

@main
struct SwaggerCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swaggerctl",
        abstract: "Sign in to a Swagger/OpenAPI account API and show your profile.",
        discussion: """
            A session made in one shell is reused by every later shell, for as long as the server allows: \
            expired access tokens are refreshed, and logout revokes the session on the server. Tokens are kept \
            in the desktop keyring (the Secret Service), or where there is none, in a private file (0600 in a \
            0700 folder), with a warning.

            Quick start:
              swaggerctl login -s https://api.example.com -e me@example.com
              swaggerctl details     # your profile, from any later shell
              swaggerctl logout      # ends the session, here and on the server

            Exit codes: 0 success, 1 other failure, 3 network, 4 authentication, 5 server or contract, \
            64 usage, 126 command cannot run, 127 command not found, 130 cancelled. See swaggerctl(1) for more.
            """,
        version: version,
        subcommands: [
            Login.self, Details.self, Logout.self, Status.self, Token.self, Refresh.self, Switch.self, API.self,
            Operations.self, Exec.self, GitCredential.self,
            Server.self, Completion.self,
        ]
    )

    /// `swaggerctl 0.1.0 (commit 1a2b3c4d5e6f, Swift 6.3.1)`: one line, for bug reports.
    static var version: String {
        let commit = BuildInfo.commit.map { "commit \($0)" } ?? "commit unknown"
        let swift = BuildInfo.swiftVersion.map { "Swift \($0)" } ?? "Swift unknown"
        return "swaggerctl \(SwaggerctlVersion.current) (\(commit), \(swift))"
    }

    /// Parses the command line, runs the command on the command loop, and turns every failure into its message
    /// and exit code: the only place that maps errors to exit codes.
    ///
    /// Parsing comes first, on the bare main thread: `--version`, help and a usage error never pay for the loop.
    static func main() {
        guard StandardDescriptors.openClosed() else {
            fail(SwaggerError(.failure, "/dev/null could not be opened in place of a closed standard stream."))
        }
        // A core dump, or another process of the same user reading this one's memory, would show the password or
        // the tokens: neither may happen to a process that holds them.
        _ = swaggerctl_set_undumpable()
        InheritedSignals.record()
        let parsed: any ParsableCommand
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let mistake = UsageCheck.unknownCommand(in: arguments, commands: commandNames) {
                throw ValidationError(mistake)
            }
            parsed = try parseAsRoot(arguments)
        } catch {
            fail(error)
        }
        // A parsed command is not Sendable; it goes to the loop, which is this same thread, and nothing else ever
        // holds it.
        nonisolated(unsafe) var command = parsed
        CommandProcess.run {
            do {
                if var command = command as? AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
            } catch {
                fail(error)
            }
            terminate(0)
        }
    }

    /// Ends the process for `error`: its one line and exit code, or the help, version or script it asked for.
    private static func fail(_ error: any Error) -> Never {
        if let error = error as? SwaggerError {
            Terminal.error(error.message)
            terminate(exitCode(for: error.code).rawValue)
        }
        let code = exitCode(for: error)
        // Help (each example whole) and --version go to stdout, as argument-parser prints them. So does the script that
        // --generate-completion-script asks for, but made to complete URLs and fields, as `completion` prints it.
        guard code != .success else {
            let message = fullMessage(for: error)
            let script = Completion.adapted(message)
            if script != message {
                Terminal.print(script)
            } else if !message.isEmpty {
                // As argument-parser prints help and --version itself, with a line break after.
                // The JSON that generate-manual reads for the man page goes as argument-parser writes it.
                let dump = CommandLine.arguments.contains("--experimental-dump-help")
                let unwrapped = HelpExamples.unwrapped(message)
                let help = dump ? unwrapped : HelpManual.pointing(unwrapped)
                Terminal.print(dump ? help + "\n" : UsageCheck.foldingUsage(help, width: width) + "\n")
            }
            terminate(0)
        }
        Terminal.standardError.write(UsageCheck.foldingUsage(UsageCheck.message(fullMessage(for: error)), width: width))
        terminate(code.rawValue)
    }

    /// The width help and usage errors are folded to: the terminal's, and 80 columns where there is none, as
    /// argument-parser wraps its help.
    private static var width: Int { max(Terminal.columns ?? 80, 40) }

    /// Ends the process with `status`. The C library's `exit`, which the command's own `exit(withError:)`
    /// would hide.
    private static func terminate(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }

    static func exitCode(for code: SwaggerError.Code) -> ExitCode {
        switch code {
        case .failure: .failure
        case .network: ExitCode(3)
        case .authentication: ExitCode(4)
        case .server: ExitCode(5)
        case .usage: .validationFailure
        // What a shell reports for a process that SIGINT ended, which is how Ctrl-C ends a prompt.
        case .cancelled: ExitCode(130)
        // As a shell reports a command it cannot find or run.
        case .commandNotFound: ExitCode(127)
        case .commandNotRunnable: ExitCode(126)
        }
    }

    /// The subcommands' names, `help` included.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }
}
