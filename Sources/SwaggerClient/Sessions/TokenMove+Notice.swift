import FoundationEssentials
import SwaggerModel

extension SessionController.TokenMove {
    /// What a change of description would do to the sessions kept under its server, before it is saved.
    package var notice: String {
        let list = origins.map(\.string).joined(separator: ", ")
        return "This sends the tokens of \(Self.accountsOf(accounts)) on \(server) to \(list) too."
    }

    /// The refusal of a change that moves tokens, off a terminal, without `--yes`.
    package var refusal: SwaggerError {
        SwaggerError(.usage, notice + " Nothing was saved; add --yes if you trust it.")
    }

    private static func accountsOf(_ accounts: [String]) -> String {
        let others = accounts.count - 1
        return others == 0 ? accounts[0] : "\(accounts[0]) and \(others) other session\(others == 1 ? "" : "s")"
    }
}
