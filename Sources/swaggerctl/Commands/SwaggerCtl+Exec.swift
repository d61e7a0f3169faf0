import ArgumentParser
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Exec: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "exec",
            abstract: "Run a command with the session's access token in its environment.",
            discussion: """
                The access token is renewed first if it is due, then swaggerctl becomes COMMAND (run directly, \
                never through a shell), with the token in SWAGGERCTL_TOKEN (or --env's name), the server's URL in \
                SWAGGERCTL_SERVER and the header's value, such as "Bearer …", in SWAGGERCTL_AUTHORIZATION. A \
                swaggerctl run by COMMAND uses that token. The token is never on a command line, where ps shows it.

                COMMAND is found as the shell's `command -v` finds it: a name with a / is that file, any other is \
                looked for in the folders of PATH (an empty PATH names none, and an empty entry is not the \
                current folder). It runs only as execve(2) runs it: a script needs a #! line. --env may not name \
                a variable that the dynamic loader or the C library reads (LD_*, MALLOC_*, GCONV_PATH, TMPDIR …).

                The exit status, signals and streams are COMMAND's; 127 if it is not found, 126 if it cannot be \
                run. A session that cannot give a token fails as `swaggerctl token` does, and COMMAND is not run.

                Examples:
                  swaggerctl exec -- swaggerctl details
                  swaggerctl exec -- python3 report.py
                  swaggerctl exec --env API_TOKEN -e ana@example.com -- python3 report.py
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Option(
            name: .customLong("env"),
            help: ArgumentHelp("The variable that holds the token. Default: SWAGGERCTL_TOKEN.", valueName: "name"))
        var variable = "SWAGGERCTL_TOKEN"

        @Argument(
            parsing: .postTerminator,
            help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty, !command[0].isEmpty else {
                throw ValidationError("Give the command after --, as in: swaggerctl exec -- curl …")
            }
            if let refusal = ExecCommand.refusal(of: variable) { throw ValidationError(refusal) }
        }

        func run() async throws {
            var exec = ExecCommand()
            (exec.session, exec.connection, exec.variable) = (
                try session.choice(), network.connection(keyring: keyring), variable
            )
            let variables = try await exec.run(.terminal)
            throw ProgramReplacement.replace(with: command, setting: variables)
        }
    }
}
