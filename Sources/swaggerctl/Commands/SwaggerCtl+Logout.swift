import ArgumentParser
import SwaggerClient

extension SwaggerCtl {
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the stored session for a server.",
            discussion: "Exits 0 when you were not logged in, after saying so.")

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring)
            let notice = try await SessionController.withController(
                configuration: configuration, warn: Terminal.warning
            ) {
                (controller) throws(SwaggerError) in
                let selection = try controller.select(serverFlag: session.server, email: session.email)
                let server = selection.server
                return switch try await controller.logout(selection) {
                case .loggedOut(let account): "Logged out \(account.email) from \(server)."
                case .notLoggedIn: "Not logged in to \(server); nothing to remove."
                }
            }
            Terminal.notice(notice)
        }
    }
}
