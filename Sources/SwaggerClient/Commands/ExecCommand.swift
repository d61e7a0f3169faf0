import SessionMachine
import SwaggerModel

/// `exec`: a command given the session's fresh access token in its environment. The flow decides what the command
/// is given; becoming it is the program's (`execve`, which a test cannot survive).
package struct ExecCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    /// `--env`: the variable that holds the token.
    package var variable = "SWAGGERCTL_TOKEN"

    package init() {}

    /// Why `--env` may not name `variable`; `nil` when it may.
    package static func refusal(of variable: String) -> String? {
        guard UsableToken.isTokenVariable(variable) else {
            return "--env takes a variable name of letters, digits and _, other than SWAGGERCTL_SERVER and "
                + "SWAGGERCTL_AUTHORIZATION."
        }
        guard !UsableToken.isReadByLoader(variable) else {
            return "--env \(variable) is read by the dynamic loader or the C library, which would take the token as a "
                + "setting; name another variable."
        }
        return nil
    }

    /// The variables the command is to be given: the token, the server and the header's value.
    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) -> [(name: String, value: String)] {
        let token = try await session.usableToken(connection, in: environment)
        if let notice = token.notice { environment.console.warning(notice) }
        return token.environment(tokenVariable: variable)
    }
}
