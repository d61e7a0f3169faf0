import SessionMachine
import SwaggerModel

/// `token`: a usable access token, refreshed first when it is about to expire, printed in one of its formats.
package struct TokenCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    package var format = TokenFormat.plain

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let token = try await session.usableToken(connection, in: environment)
        // JSON names the key and the scheme, for a program that makes its own proofs or reads the pair.
        if let notice = token.notice, format != .json { environment.console.warning(notice) }
        environment.console.print(
            try format.render(token, execInfo: environment.variables["KUBERNETES_EXEC_INFO"]))
    }
}

extension SessionChoice {
    /// The session's access token, refreshed first if it is about to expire, or `SWAGGERCTL_TOKEN`.
    /// - Throws: ``SwaggerError/notAToken`` for a token that no header could carry.
    func usableToken(_ connection: ConnectionChoice, in environment: CommandEnvironment)
        async throws(SwaggerError) -> UsableToken
    {
        let configuration = try environment.configuration(connection)
        let token = try await environment.withController(configuration) { (controller) throws(SwaggerError) in
            try await controller.accessToken(
                controller.select(server: server, name: account, usingEnvironmentToken: true))
        }
        guard Credentials.isToken(token.value) else { throw SwaggerError.notAToken }
        return token
    }
}
