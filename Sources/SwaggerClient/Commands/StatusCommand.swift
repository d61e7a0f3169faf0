import FoundationEssentials
import SessionStorage
import SwaggerModel
import SwaggerOutput

/// `status`: the stored sessions, or those `-s` and `-e` name, and with `--check` whether the server still takes
/// the one in use.
package struct StatusCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    package var format = OutputFormat.table
    package var check = false

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let configuration = try environment.configuration(connection)
        let (console, now) = (environment.console, environment.now())
        let (report, tokens) = try await environment.withController(configuration) {
            (controller) throws(SwaggerError) in
            let selection =
                check
                ? try controller.select(server: session.server, name: session.account, usingEnvironmentToken: true)
                : nil
            let report = try await controller.status(
                checking: selection, server: session.server, name: session.account)
            return (report, controller.tokens)
        }
        if let notice = report.notice(now: now) { console.notice(notice) }
        report.warnings.forEach { console.warning($0) }
        let location = { (status: SessionStatus) in tokens.location(of: status.backend, for: status.account) }
        switch format {
        case .table:
            console.print(
                SessionStatus.render(
                    report.sessions, location: location, renderer: console.tableRenderer, now: now,
                    verbose: connection.verbose))
        case .json: console.print(SessionStatus.json(report.sessions))
        }
        if let lacking = report.lackingTokens { throw SwaggerError(.failure, lacking) }
        guard report.isEmpty else { return }
        guard session.server == nil, session.account == nil else {
            throw SwaggerError(.authentication, "No stored session matches \(session.flags).")
        }
        throw SwaggerError.notLoggedInAnywhere
    }
}
