/// A server the registry knows, as `server list` and `server show` show it.
package struct ServerSummary: Sendable, Hashable {
    package var entry: ServerEntry
    /// Whether commands without `-s` use it.
    package var isCurrent: Bool
    /// The accounts logged in to it, the active one first.
    package var accounts: [String]

    package init(entry: ServerEntry, isCurrent: Bool, accounts: [String]) {
        self.entry = entry
        self.isCurrent = isCurrent
        self.accounts = accounts
    }
}
