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
            try await SwitchCommand(session: session.choice()).run(.terminal)
        }
    }
}
