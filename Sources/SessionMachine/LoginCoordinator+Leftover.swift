import FoundationEssentials
import SwaggerModel

extension LoginCoordinator.Leftover {
    /// The warning beside a failed login's error, which names the server: the token it was given works on, where
    /// nothing here can use it. Short, to stay one line beside that error.
    package func line(in context: MessageContext) -> String {
        "the login's token works \(RelativeTime.stays(until, now: context.now)): "
            + (failure == nil ? "nothing ends it." : "revoking failed.")
    }
}
