import FoundationEssentials
import SwaggerModel
import SwaggerOutput
import SwaggerServers

extension Discovery.Delegated {
    /// The origin a login there sends the password to, as `--allow-origin` names it.
    package var origin: String { ServerURL(originOf: server.url)?.string ?? server.string }

    /// Whether `--allow-origin` named where the login would go on to.
    package func isAllowed(by origins: [String]) -> Bool {
        let origin = ServerURL(originOf: server.url)
        return origins.contains { ServerURL.allowedOrigin($0) == origin }
    }

    /// What the person is told before they are asked whether to go on: where the password would go, and who said so.
    package func notice(for asked: ServerURL) -> String {
        "\(asked) says it is served by \(server) (\(source.pathAndQuery)), which your password would go to."
    }

    /// The question after ``notice(for:)``.
    package var question: String { "Log in to \(server)? [y/N] " }

    /// The error where nobody can say yes: off a terminal without `--allow-origin`, and for a command that only
    /// reads how to talk to the server.
    package func refusal(for asked: ServerURL) -> String {
        // The server is a document's: the words a person may copy into a shell are quoted for it.
        "\(asked) says it is served by \(server) (\(source.pathAndQuery)): log in there with --allow-origin "
            + "\(CurlLine.quoted(origin)) or -s \(CurlLine.quoted(server.string))."
    }
}
