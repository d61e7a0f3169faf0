import SwaggerModel

/// `switch`: an account made the active one on its server, and that server the default.
package struct SwitchCommand: Sendable {
    /// The server, and the account, which is asked for on a terminal when there are several and none is named.
    package var session: SessionChoice

    package init(session: SessionChoice = SessionChoice()) {
        self.session = session
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let console = environment.console
        let record = try await environment.withController(environment.configuration()) {
            (controller) throws(SwaggerError) in
            let selection = try controller.select(server: session.server, name: nil)
            let name =
                if let account = session.account { account } else {
                    try AccountChooser(console: console).choose(
                        on: selection.server, among: controller.records(), to: "Switch to",
                        cancelled: "Switch cancelled.")
                }
            return try controller.switchTo(name, on: selection.server)
        }
        console.notice("Switched to \(record.name) on \(record.server), which is now the default server.")
    }
}
