import FoundationEssentials
import SwaggerModel

/// The session list, `sessions.json` in the configuration folder: every session's record.
///
/// The session that most recently logged in or was switched to is its server's active one, and the most
/// recent overall names the server that later commands use by default.
package struct SessionList: Sendable {
    /// The file's name inside the configuration folder.
    package static let fileName = "sessions.json"

    private let file: AccountList<SessionRecord>

    /// The session list in the configuration folder `directory`.
    package init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "session list", empty: { [] }))
    }

    package var path: String { file.path }

    /// Every stored session, the most recently active first (``SessionRecord/activeSince``). Of two from the
    /// same instant, the one saved last comes first: ``save(_:)`` appends. A session a logout began removing is
    /// gone, and not among them.
    package func records() throws(SwaggerError) -> [SessionRecord] {
        Self.ordered(try file.elements())
    }

    /// ``records()`` and ``damaged()`` from one read of the file.
    package func contents() throws(SwaggerError) -> (records: [SessionRecord], damaged: [Account?]) {
        let (records, damaged) = try file.contents()
        return (Self.ordered(records), damaged)
    }

    /// The sessions whose logout was stopped after it began removing them: gone, with tokens that may be left.
    package func removing() throws(SwaggerError) -> [Account] {
        try file.elements().filter { $0.removingSince != nil }.map(\.account)
    }

    /// Marks `account`'s session as being removed (`since` a time), or, with `nil`, as whole again; a logout marks it
    /// before it removes the tokens, so that a logout stopped half-way leaves no session that lists but cannot work.
    package func markRemoving(_ account: Account, since: Date?) throws(SwaggerError) {
        try file.modify(account) { $0.removingSince = since }
    }

    private static func ordered(_ records: [SessionRecord]) -> [SessionRecord] {
        records.filter { $0.removingSince == nil }.enumerated()
            .sorted { ($0.element.activeSince, $0.offset) > ($1.element.activeSince, $1.offset) }
            .map(\.element)
    }

    /// The session to use on `server`: the one for the account `name` when given, else the active one there.
    package func record(server: ServerURL, name: String? = nil) throws(SwaggerError) -> SessionRecord? {
        try records().session(on: server, name: name)
    }

    /// The accounts whose records cannot be read (`nil` for one that does not say whose it is). They affect
    /// only their own session, and ``remove(_:)`` removes them.
    package func damaged() throws(SwaggerError) -> [Account?] {
        try file.damaged()
    }

    /// Adds `record`, replacing any record for the same account.
    /// - Parameter durability: ``PrivateDirectory/Durability/durable`` unless losing this record in a crash of
    ///   the machine leaves the one before it, and the session still works with it.
    package func save(_ record: SessionRecord, durability: PrivateDirectory.Durability = .durable)
        throws(SwaggerError)
    {
        try file.replace(record, durability: durability)
    }

    /// Fails as ``save(_:durability:)`` would fail to write the list (a folder that cannot be written, a full disk,
    /// a damaged list), and changes nothing.
    package func checkWritable() throws(SwaggerError) {
        try file.checkWritable()
    }

    /// Removes the record for `account`, and says whether there was one.
    @discardableResult
    package func remove(_ account: Account) throws(SwaggerError) -> Bool {
        try file.remove(account)
    }
}

extension SessionRecord: AccountKeyed {}

extension [SessionRecord] {
    /// Of records sorted as ``SessionList/records()`` sorts them: the one for the account `name` on `server` when
    /// given, else the active one there.
    package func session(on server: ServerURL, name: String?) -> SessionRecord? {
        first { $0.server == server && (name == nil || $0.name == name) }
    }
}
