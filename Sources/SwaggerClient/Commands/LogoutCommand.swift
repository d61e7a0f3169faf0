import SwaggerModel
import SwaggerOutput

/// `logout`: a session, or every one, revoked on its server and removed from this machine.
package struct LogoutCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    /// `--local`: removed here only, the server not asked.
    package var local = false
    /// `--all`: every session on every server, going on past one that fails.
    package var all = false

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let console = environment.console
        let notice = try await environment.withController(environment.configuration(connection)) {
            (controller) throws(SwaggerError) -> String? in
            guard !all else {
                try await logoutAll(controller, console: console)
                return nil
            }
            return try await logout(controller, console: console)
        }
        if let notice { console.notice(notice) }
    }

    /// What was removed, then a line for each session that failed, the last as the error that exits.
    private func logoutAll(_ controller: SessionController, console: any Console) async throws(SwaggerError) {
        let (removed, failures) = try await controller.logoutAll(revoke: !local)
        console.notice(LogoutReport.line(removed: removed))
        for failure in failures.dropLast() { console.error(failure.message) }
        if let last = failures.last { throw last }
    }

    /// The one session `session` names, or the person picks; the line that says what became of it.
    private func logout(_ controller: SessionController, console: any Console) async throws(SwaggerError) -> String {
        if session.server == nil, try controller.defaultServer() == nil { return LogoutReport.line(removed: []) }
        var selection = try controller.select(server: session.server, name: session.account)
        let server = selection.server
        // Which of several accounts to end is the person's choice, never the one that happens to be active.
        if session.account == nil, case let here = try controller.accounts(on: server), here.count > 1 {
            let name = try AccountChooser(console: console).choose(
                on: server, among: here, to: "Log out of", cancelled: "Logout cancelled.")
            selection = try controller.select(server: .url(server), name: name)
        }
        switch try await controller.logout(selection, revoke: !local) {
        case .loggedOut(let account, let nowActive):
            let next = nowActive.map { " \($0) is now the active account there." } ?? ""
            return "Logged out \(account.name) from \(server).\(next)"
        case .notLoggedIn:
            return LogoutReport.nothingToRemove(on: server, name: session.account, sessions: try controller.records())
        }
    }
}
