import ArgumentParser
import Foundation
import SwaggerClient

@main
struct SwaggerCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swaggerctl",
        abstract: "Sign in to a Swagger/OpenAPI account API and show your profile.",
        discussion: """
            A session made in one shell is reused by every later shell. Tokens are kept in the desktop \
            keyring (the Secret Service), or where there is none, in a private file (0600 in a 0700 folder) \
            under SWAGGERCTL_CONFIG_DIR, $XDG_CONFIG_HOME/swaggerctl or ~/.config/swaggerctl, with a warning. \
            Choose with --keyring or SWAGGERCTL_KEYRING: auto, secret-service or file.

            Exit codes: 0 success, 1 other failure, 3 network, 4 authentication, 5 server or contract, \
            64 usage.
            """,
        version: SwaggerClientVersion.current,
        subcommands: [Login.self, Details.self, Logout.self, Status.self, Token.self, Refresh.self]
    )

    /// Parses the command line, runs the command, and turns a ``SwaggerError`` into one line on stderr and
    /// its exit code. This is the only place that maps errors to exit codes.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as SwaggerError {
            Terminal.error(error.message)
            Foundation.exit(exitCode(for: error.code).rawValue)
        } catch {
            exit(withError: error)
        }
    }

    static func exitCode(for code: SwaggerError.Code) -> ExitCode {
        switch code {
        case .failure: .failure
        case .network: ExitCode(3)
        case .authentication: ExitCode(4)
        case .server: ExitCode(5)
        case .usage: .validationFailure
        }
    }
}
