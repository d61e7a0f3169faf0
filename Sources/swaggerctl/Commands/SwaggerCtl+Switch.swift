import ArgumentParser
import FoundationEssentials
import Glibc
import SwaggerClient
import SwaggerModel
import SwaggerOutput

extension SwaggerCtl {
    struct Switch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "switch",
            abstract: "Make an account the active one on its server, and that server the default.",
            discussion: """
                details, token, refresh and logout use the active account unless -e names another. On a \
                terminal without -e, switch lists the accounts logged in to the server and asks which one to \
                use. A later login makes its own account the active one.

                Examples:
                  swaggerctl switch -e ana@example.com
                  swaggerctl switch -s https://api.example.com
                """)

        @OptionGroup var session: SessionOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let record = try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
                let selection = try controller.select(server: session.serverReference(), name: nil)
                let email =
                    if let email = session.account { email } else {
                        try AccountChooser.choose(
                            on: selection.server, among: controller.records(), to: "Switch to",
                            cancelled: "Switch cancelled.")
                    }
                return try controller.switchTo(email, on: selection.server)
            }
            Terminal.notice("Switched to \(record.name) on \(record.server), which is now the default server.")
        }
    }
}

/// Asks which account to switch to, on a terminal.
enum AccountChooser {
    /// The account on `server` for a command (`verb`: "Switch to", "Log out of"), of the stored sessions
    /// `records`: the only one there, or the one the person picks, asked again until the answer is one of the
    /// numbers shown. Off a terminal, several accounts are refused rather than one picked for the person.
    static func choose(
        on server: ServerURL, among records: [SessionRecord], to verb: String, cancelled: String
    ) throws(SwaggerError) -> String {
        let accounts = records.filter { $0.server == server }
        guard let first = accounts.first else { throw notLoggedIn(to: server, elsewhere: records) }
        guard accounts.count > 1 else { return first.name }
        let names = accounts.map(\.name)
        guard Terminal.isTerminal(STDIN_FILENO) else {
            throw SwaggerError(
                .usage, "Name the account with -e; logged in to \(first.server): \(names.joined(separator: ", ")).")
        }
        Terminal.notice("Accounts logged in to \(first.server):")
        for (number, name) in names.enumerated() {
            Terminal.notice("  \(number + 1). \(name)\(number == 0 ? " (active)" : "")")
        }
        while true {
            let answer = try Prompt.line("\(verb) [1-\(names.count)]: ", cancelled: cancelled)
            if let number = Int(answer), names.indices.contains(number - 1) { return names[number - 1] }
            Terminal.notice("\"\(TerminalText.escaped(answer))\" is not one of the numbers 1 to \(names.count).")
        }
    }

    /// Nobody is logged in to `server`: the error says where somebody is, if anywhere.
    static func notLoggedIn(to server: ServerURL, elsewhere records: [SessionRecord]) -> SwaggerError {
        var servers: [ServerURL] = []
        for record in records where !servers.contains(record.server) { servers.append(record.server) }
        guard !servers.isEmpty else { return .notLoggedInAnywhere }
        return SwaggerError(
            .authentication,
            "No account is logged in to \(server); sessions are on \(servers.map(\.string).joined(separator: ", ")). Pick one "
                + "with -s, or run `\(server.loginCommand(as: "you@example.com"))`.")
    }
}
