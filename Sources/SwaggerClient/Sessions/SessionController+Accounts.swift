import FoundationEssentials
import SessionStorage
import SwaggerModel

extension SessionController {
    /// The accounts logged in to `server`, the active one first.
    package func accounts(on server: ServerURL) throws(SwaggerError) -> [SessionRecord] {
        try records().filter { $0.server == server }
    }

    /// Makes the session of the account `name` the active one on its server, and that server the default for later
    /// commands.
    /// - Throws: `SwaggerError` with code `authentication` when `name` is not logged in there.
    func switchTo(_ name: String, on server: ServerURL) throws(SwaggerError) -> SessionRecord {
        guard var record = try sessions.record(server: server, name: name) else {
            let others = try accounts(on: server).map(\.name)
            let known = others.isEmpty ? "no account is" : Account.clause(others)
            throw SwaggerError(
                .authentication,
                "\(name) has no session on \(server); \(known) logged in there. Run `\(server.loginCommand(as: name))`."
            )
        }
        record.selectedAt = now()
        try sessions.save(record)
        try servers.makeCurrent(server)
        return record
    }
}
