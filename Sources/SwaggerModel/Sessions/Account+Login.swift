import FoundationEssentials

extension ServerURL {
    /// The command that logs `name` in to this server: `-e` for an e-mail, `-u` for a user name.
    package func loginCommand(as name: String) -> String {
        "swaggerctl login -s \(self) \(name.contains("@") ? "-e" : "-u") \(name)"
    }

    /// The command that logs `name` in, or with no name, someone: `-e you@example.com` where the server's login
    /// takes an e-mail, `-u NAME` where it takes a user name.
    package func loginCommand(as name: String?, _ description: ServerDescription?) -> String {
        if let name { return loginCommand(as: name) }
        return description?.login.takesEmail == false
            ? "swaggerctl login -s \(self) -u NAME" : loginCommand(as: "you@example.com")
    }
}

extension Account {
    /// The command that logs this account in again.
    package var loginCommand: String { server.loginCommand(as: name) }

    /// The command that signs this client in again, for a session of `--client-credentials`.
    package var clientLoginCommand: String {
        "swaggerctl login -s \(server) --client-credentials --client-id \(name)"
    }
}

extension Account {
    /// The account that became the active one on `server` when the active one's session was removed.
    package static func nowActiveNotice(_ name: String, on server: ServerURL) -> String {
        "\(name) is now the active account on \(server); `swaggerctl switch -s \(server)` picks another."
    }

    /// Who else a line about `server` can point to, as a clause to end it: `; a@x is logged in there` when someone
    /// is, else `; sessions are on T` when sessions are elsewhere, else nothing. Other sessions are named, never
    /// used: a command stays on the account and server it was given or last used.
    package static func othersClause(on server: ServerURL, among records: [SessionRecord]) -> String {
        let here = records.filter { $0.server == server }.map(\.name)
        if !here.isEmpty { return "; \(clause(here)) logged in there" }
        var elsewhere: [String] = []
        for record in records where !elsewhere.contains(record.server.string) { elsewhere.append(record.server.string) }
        guard let first = elsewhere.first else { return "" }
        // One server stands for the rest, so the line stays within two of a terminal.
        return "; sessions are on \(first)\(elsewhere.count > 1 ? " and more" : "")"
    }

    /// Why `name` (or, with no name, the person) cannot act on `server`, and the command that works from here:
    /// `switch` to the server where their session was last used, when there is one on another server; else the
    /// login to `server`. When others are logged in to `server` but not `name`, they are named, and `name` is
    /// logged in there.
    package static func notLoggedIn(
        to server: ServerURL, as name: String?, among records: [SessionRecord], _ description: ServerDescription?
    ) -> String {
        let login = server.loginCommand(as: name, description)
        let here = records.filter { $0.server == server }.map(\.name)
        if let name, !here.isEmpty {
            return "\(name) has no session on \(server); \(clause(here)) logged in there. Run `\(login)`."
        }
        let who = name.map { "\($0) is" } ?? "You are"
        let theirs = records.filter { $0.server != server && (name == nil || $0.name == name) }
        guard let last = theirs.max(by: { $0.activeSince < $1.activeSince }) else {
            return "\(who) not logged in to \(server). Run `\(login)`."
        }
        let command = "swaggerctl switch -s \(last.server)" + (name.map { " -e \($0)" } ?? "")
        return "\(who) not logged in to \(server). Run `\(command)` to use the session there."
    }

    /// `a@x is`, or `a@x, b@x are`: who is logged in somewhere, to begin a clause.
    package static func clause(_ names: [String]) -> String {
        "\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are")"
    }
}
