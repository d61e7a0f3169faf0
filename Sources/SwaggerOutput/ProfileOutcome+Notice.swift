import FoundationEssentials
import SessionMachine
import SwaggerModel

extension ProfileOutcome {
    /// The line to show on standard error when the profile is the saved one, or `nil` when it came from the
    /// server just now: `Showing your profile as saved 2 h ago: S could not be reached (connection refused).`
    package func notice(server: ServerURL, now: Date) -> String? {
        guard case .saved(let receivedAt, var error) = origin else { return nil }
        var server = server
        if case .elsewhere(let host, let failure) = error { (server, error) = (host, failure) }
        let reason =
            switch error {
            case .unreachable(let detail): "\(server) could not be reached (\(detail))"
            case .timedOut: "\(server) did not answer in time"
            default: "\(server) could not be used"
            }
        let age = max(0, Int(now.timeIntervalSince(receivedAt).rounded()))
        let when = age == 0 ? "just now" : "\(RelativeTime.span(age)) ago"
        return "Showing your profile as saved \(when): \(reason)."
    }
}
