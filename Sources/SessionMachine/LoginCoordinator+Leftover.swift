import FoundationEssentials
import SwaggerModel

extension LoginCoordinator.Leftover {
    /// The warning beside a failed login's error, which names the server: the token it was given works on, where
    /// nothing here can use it. Short, to stay one line beside that error.
    package func line(in context: MessageContext) -> String {
        "the login's token works \(RelativeTime.stays(until, now: context.now)): "
            + (failure == nil ? "nothing ends it." : "revoking failed.")
    }

    /// The warning after a login that replaced the account's earlier session on `server`, which nothing here holds
    /// any more and which the server did not end.
    package func replacedLine(on server: ServerURL, in context: MessageContext) -> String {
        let why =
            failure.map {
                "ending it failed: "
                    + $0.rendered(on: server, account: nil, description: nil, in: context).clause(naming: server)
            } ?? "nothing ends it."
        return "your earlier session works on the server \(RelativeTime.stays(until, now: context.now)); \(why)"
    }
}
