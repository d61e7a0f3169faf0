import SessionMachine
import SwaggerModel

/// `git-credential`: git's credential helper, answering `get` with a session's fresh token, and `--setup`'s lines.
package enum GitCredentialCommand: Sendable {
    /// The git config lines that make `program` the helper for the server's origin.
    case setup(ServerReference, program: String, connection: ConnectionChoice)
    /// git's request, as it wrote it on standard input.
    case get(request: String, connection: ConnectionChoice)

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let console = environment.console
        switch self {
        case .setup(let reference, let program, let connection):
            let server = try await environment.withController(environment.configuration(connection)) {
                (controller) throws(SwaggerError) in try controller.gitCredentialSetup(for: reference)
            }
            console.print(GitCredentialAnswer.setup(for: server, program: program))
        case .get(let text, let connection):
            let request = GitCredentialRequest(text: text)
            let token = try await environment.withController(environment.configuration(connection)) {
                (controller) throws(SwaggerError) in try await controller.gitCredential(request)
            }
            // Nothing for a host with no session: git asks its other helpers.
            guard let token else { return }
            guard Credentials.isToken(token.value) else { throw SwaggerError.notAToken }
            if token.boundTo != nil { console.warning(ProofBinding.tokenNotice) }
            console.print(GitCredentialAnswer.text(token, for: request))
        }
    }
}
