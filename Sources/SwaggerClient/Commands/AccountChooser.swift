import SessionStorage
import SwaggerModel
import SwaggerOutput

/// Which of the accounts logged in to a server a command acts on, when the person did not say: the only one, else
/// the one they pick from a numbered list on a terminal.
struct AccountChooser {
    let console: any Console

    /// The account to act on among `records`' on `server`.
    /// - Throws: ``SwaggerError/Code/authentication`` when none is logged in there, ``SwaggerError/Code/usage``
    ///   off a terminal with several, ``SwaggerError/Code/cancelled`` with `cancelled` for no answer.
    func choose(
        on server: ServerURL, among records: [SessionRecord], to verb: String, cancelled: String
    ) throws(SwaggerError) -> String {
        let accounts = records.filter { $0.server == server }
        guard let first = accounts.first else { throw Self.notLoggedIn(to: server, sessions: records) }
        guard accounts.count > 1 else { return first.name }
        let names = accounts.map(\.name)
        guard console.canAsk else {
            throw SwaggerError(
                .usage, "Name the account with -e; logged in to \(first.server): \(names.joined(separator: ", ")).")
        }
        console.notice("Accounts logged in to \(first.server):")
        for (number, name) in names.enumerated() {
            console.notice("  \(number + 1). \(name)\(number == 0 ? " (active)" : "")")
        }
        while true {
            let answer = try console.line("\(verb) [1-\(names.count)]: ", cancelled: cancelled)
            if let number = Int(answer), names.indices.contains(number - 1) { return names[number - 1] }
            console.notice("\"\(TerminalText.escaped(answer))\" is not one of the numbers 1 to \(names.count).")
        }
    }

    /// No account on `server`: the way to the sessions elsewhere, if any.
    static func notLoggedIn(to server: ServerURL, sessions records: [SessionRecord]) -> SwaggerError {
        guard !records.isEmpty else { return .notLoggedInAnywhere }
        return SwaggerError(.authentication, Account.notLoggedIn(to: server, as: nil, among: records, nil))
    }
}
