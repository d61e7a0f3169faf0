/// A name a command asks a server to have, from `--name` or an imported file's `name`, and whether `--rename` lets
/// it take the place of a name the server has, or move the name from the server that has it.
package struct NameRequest: Sendable, Hashable {
    package var name: ServerName
    package var rename: Bool

    package init(_ name: ServerName, rename: Bool) {
        self.name = name
        self.rename = rename
    }
}

/// What a command that saves a server does to the names among the registry's entries: the server's name before
/// and after, and the server that gave the name up for it.
///
/// A name changes only when the command says so. A script's `-s prod` sends a CI token, and a login's password, to
/// whichever server is named `prod`: a name that moved silently from one server to another would send them there.
package struct ServerNaming: Sendable, Hashable {
    package var server: ServerURL
    package var before: ServerName?
    package var after: ServerName?
    /// The server that had `after` and has no name now, which only `--rename` allows.
    package var takenFrom: ServerURL?

    /// The naming that `request` makes for `server` among `entries`; without a request, the server keeps its name.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage``, unless the request allows renaming, when
    ///   `server` has another name or another server has the name asked for.
    package init(_ server: ServerURL, _ request: NameRequest?, among entries: [ServerEntry]) throws(SwaggerError) {
        self.server = server
        before = entries.first { $0.server == server }?.name
        after = before
        guard let request, request.name != before else { return }
        let holder = entries.first { $0.name == request.name && $0.server != server }?.server
        if !request.rename {
            if let holder {
                throw SwaggerError(
                    .usage,
                    "\(holder) has the name \(request.name); give another, or add --rename to move the name to "
                        + "\(server).")
            }
            if let before {
                throw SwaggerError(
                    .usage, "\(server) is named \(before); add --rename to name it \(request.name) instead.")
            }
        }
        after = request.name
        takenFrom = holder
    }

    /// The name said after the server's URL, in parentheses: `(named prod)`, `(now named prod; was staging)`; empty
    /// for a server with no name, before or after.
    package var clause: String {
        guard let after else { return "" }
        guard after != before else { return " (named \(after))" }
        let was = before.map { "; was \($0)" } ?? ""
        let taken = takenFrom.map { ", taken from \($0), which has no name now" } ?? ""
        return " (now named \(after)\(taken)\(was))"
    }
}
