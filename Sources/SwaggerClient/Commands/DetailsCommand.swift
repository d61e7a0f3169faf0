import FoundationEssentials
import SessionMachine
import SwaggerModel
import SwaggerOutput

/// `details`: the profile of the session, fetched, else the saved one when the server cannot be reached.
package struct DetailsCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    /// `--no-cache` unset: a saved profile may stand in for the server's.
    package var allowSaved = true
    package var format = OutputFormat.table

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let configuration = try environment.configuration(connection)
        let console = environment.console
        let (outcome, server) = try await console.working("Fetching your profile") {
            (progress) throws(SwaggerError) in
            try await environment.withController(configuration, delegate: progress) {
                (controller) throws(SwaggerError) in
                let selection = try controller.select(
                    server: session.server, name: session.account, usingEnvironmentToken: true)
                return (try await controller.profile(selection, allowSaved: allowSaved), selection.server)
            }
        }
        if let notice = outcome.notice(server: server, now: environment.now()) { console.notice(notice) }
        console.print(outcome.rendered(as: format, renderer: console.tableRenderer))
    }
}

extension ProfileOutcome {
    /// The profile as a table of rows, or as JSON with every field as received.
    package func rendered(as format: OutputFormat, renderer: TableRenderer) -> String {
        switch format {
        case .table: renderer.render(DetailsViewModel.rows(for: profile, labels: labels))
        case .json: profile.prettyJSON
        }
    }
}
