import FoundationEssentials

extension ServerURL {
    /// The command that logs `name` in to this server: `-e` for an e-mail, `-u` for a user name.
    package func loginCommand(as name: String) -> String {
        "swaggerctl login -s \(self) \(name.contains("@") ? "-e" : "-u") \(name)"
    }
}

extension Account {
    /// The command that logs this account in again.
    package var loginCommand: String { server.loginCommand(as: name) }
}

extension Account {
    /// The account that became the active one on `server` when the active one's session was removed.
    package static func nowActiveNotice(_ name: String, on server: ServerURL) -> String {
        "\(name) is now the active account on \(server); `swaggerctl switch -s \(server)` picks another."
    }

    /// `a@x is`, or `a@x, b@x are`: who is logged in somewhere, to begin a clause.
    package static func clause(_ names: [String]) -> String {
        "\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are")"
    }
}
