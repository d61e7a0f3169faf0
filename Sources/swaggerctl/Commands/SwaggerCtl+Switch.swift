import ArgumentParser
import FoundationEssentials
import Glibc
import SwaggerClient

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
                let selection = try controller.select(serverFlag: session.server, email: nil)
                let email =
                    if let email = session.email { email } else {
                        try AccountChooser.choose(from: controller.accounts(on: selection.server))
                    }
                return try controller.switchTo(email, on: selection.server)
            }
            Terminal.notice("Switched to \(record.email) on \(record.server), which is now the default server.")
        }
    }
}

/// Asks which account to switch to, on a terminal.
enum AccountChooser {
    static func choose(from accounts: [SessionRecord]) throws(SwaggerError) -> String {
        guard let first = accounts.first else { throw SwaggerError.notLoggedInAnywhere }
        guard accounts.count > 1 else { return first.email }
        let names = accounts.map(\.email)
        guard Terminal.isTerminal(STDIN_FILENO) else {
            throw SwaggerError(
                .usage, "Name the account with -e; logged in to \(first.server): \(names.joined(separator: ", ")).")
        }
        Terminal.notice("Accounts logged in to \(first.server):")
        for (number, name) in names.enumerated() {
            Terminal.notice("  \(number + 1). \(name)\(number == 0 ? " (active)" : "")")
        }
        let answer = try Prompt.line("Switch to [1-\(names.count)]: ", cancelled: "Switch cancelled.")
        guard let number = Int(answer), names.indices.contains(number - 1) else {
            throw SwaggerError(.usage, "\"\(answer)\" is not one of the numbers 1 to \(names.count).")
        }
        return names[number - 1]
    }
}
