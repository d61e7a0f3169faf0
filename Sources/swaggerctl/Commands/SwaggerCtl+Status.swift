import ArgumentParser
import FoundationEssentials
import SessionStorage
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "List the stored sessions. Never prints a token.",
            discussion: """
                Every session, or those on the server -s names and of the account -e names. The one that \
                commands use without -s and -e is marked default. Exits 4 when no session is listed. With --check, the active session (or the one -s and -e name) \
                is checked with the server, refreshing it if needed: exit 0 when it is valid or was refreshed, \
                4 when it has ended (it is then removed), 3 when the server cannot be reached.

                Examples:
                  swaggerctl status
                  swaggerctl status --format json | jq -r '.[] | select(.active) | .email'
                  swaggerctl status --check || swaggerctl login -e me@example.com
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions
        @OptionGroup var output: FormatOptions

        @Flag(help: "Ask the server whether the session is still valid, refreshing it if needed.")
        var check = false

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let (report, tokens) = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                let server = try session.serverReference()
                let selection =
                    check
                    ? try controller.select(server: server, name: session.account, usingEnvironmentToken: true)
                    : nil
                let report = try await controller.status(checking: selection, server: server, name: session.account)
                return (report, controller.tokens)
            }
            if let notice = report.notice(now: Date()) { Terminal.notice(notice) }
            report.warnings.forEach(Terminal.warning)
            Terminal.print(
                output.render(report.sessions, location: { tokens.location(of: $0.backend, for: $0.account) }))
            if report.isEmpty {
                guard session.server == nil, session.account == nil else {
                    throw SwaggerError(.authentication, "No stored session matches \(Self.filterText(session)).")
                }
                throw SwaggerError.notLoggedInAnywhere
            }
        }
    }
}

extension SwaggerCtl.Status {
    /// `-s URL -e E` in words, for the error when nothing matches them.
    static func filterText(_ session: SessionOptions) -> String {
        [session.server.map { "-s \($0)" }, session.account.map { "-e \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

extension FormatOptions {
    /// The sessions as one table each, or as a JSON array (`[]` for none).
    func render(_ sessions: [SessionStatus], location: (SessionStatus) -> String) -> String {
        switch format {
        case .table: SessionStatus.render(sessions, location: location, renderer: Terminal.tableRenderer, now: Date())
        case .json: SessionStatus.json(sessions)
        }
    }
}
