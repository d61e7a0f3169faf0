import FoundationEssentials
import SessionStorage
import SwaggerModel

extension SessionController {
    /// The accounts logged in to `server`, the active one first.
    package func accounts(on server: ServerURL) throws(SwaggerError) -> [SessionRecord] {
        try records().filter { $0.server == server }
    }

    /// Makes `email`'s session the active one on its server, and that server the default for later commands.
    /// - Throws: `SwaggerError` with code `authentication` when `email` is not logged in there.
    package func switchTo(_ email: String, on server: ServerURL) throws(SwaggerError) -> SessionRecord {
        guard var record = try sessions.record(server: server, email: email) else {
            let others = try accounts(on: server).map(\.email)
            let known = others.isEmpty ? "No account is" : "Only \(Messages.accountsAre(others))"
            throw SwaggerError(
                .authentication,
                "\(email) is not logged in to \(server). \(known) logged in there; run "
                    + "`\(Messages.login(server, email))` to add it.")
        }
        record.selectedAt = now()
        try sessions.save(record)
        try servers.makeCurrent(server)
        return record
    }
}
