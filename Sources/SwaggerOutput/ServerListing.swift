import FoundationEssentials
import SwaggerModel

/// A server as `server list` and `server show` print it.
package struct ServerListing: Encodable {
    var server: String
    var name: String?
    var current: Bool
    var preset: String?
    var foundIn: String?
    var accounts: [String]

    package init(_ summary: ServerSummary) {
        server = summary.entry.server.string
        name = summary.entry.name?.string
        current = summary.isCurrent
        preset = summary.entry.serverDescription.preset
        foundIn = summary.entry.serverDescription.document?.absoluteString
        accounts = summary.accounts
    }

    /// One row: the server, and what describes it.
    package static func row(_ summary: ServerSummary) -> DetailsViewModel {
        let listing = ServerListing(summary)
        var notes: [String] = []
        if let name = listing.name { notes.append("named \(name)") }
        if listing.current { notes.append("current") }
        if let preset = listing.preset { notes.append("preset \(preset)") }
        if let found = listing.foundIn { notes.append("found in \(found)") }
        notes.append(
            listing.accounts.isEmpty
                ? "no session" : "\(listing.accounts.count) session\(listing.accounts.count == 1 ? "" : "s")")
        return DetailsViewModel(key: listing.server, value: notes.joined(separator: "; "))
    }

    /// `server show`'s rows: the server, its sessions, its description with where each part came from, and the
    /// settings `server set` keeps.
    package static func rows(_ summary: ServerSummary, now: Date) -> [DetailsViewModel] {
        let entry = summary.entry
        var rows = [
            DetailsViewModel(key: "Server", value: entry.server.string + (summary.isCurrent ? " (current)" : ""))
        ]
        if let name = entry.name { rows.append(DetailsViewModel(key: "Name", value: name.string)) }
        rows.append(
            DetailsViewModel(
                key: "Accounts", value: summary.accounts.isEmpty ? "none" : summary.accounts.joined(separator: ", ")))
        rows += ServerView.rows(for: entry.serverDescription, sources: entry.sources)
        if let appID = entry.appID { rows.append(DetailsViewModel(key: "App ID", value: appID)) }
        if let caCertificate = entry.caCertificate {
            rows.append(DetailsViewModel(key: "CA certificates", value: caCertificate))
        }
        if let document = entry.document {
            rows.append(
                DetailsViewModel(
                    key: "Document copy",
                    value:
                        "\(document.url.absoluteString), read \(RelativeTime.stamp(document.fetchedAt, now: now))")
            )
        }
        return rows
    }
}
