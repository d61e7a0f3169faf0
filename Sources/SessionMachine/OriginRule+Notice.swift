import FoundationEssentials
import SwaggerModel

extension OriginRule.Foreign {
    /// A step on another origin than `server`'s, refused before anything was sent.
    package func refusal(on server: ServerURL) -> String {
        "The \(step) is on \(origin), not \(server); nothing was sent. If you trust it: --allow-origin \(origin)."
    }
}

extension OriginRule {
    /// The line that says, at every login and whatever `-q` says, that secrets go to another host than the one
    /// named.
    package static func othersNotice(_ server: ServerURL, _ origins: [ServerURL]) -> String {
        let list = origins.map(\.string).joined(separator: ", ")
        return "Signing in to \(server) through \(list), which you allowed (`swaggerctl server show \(server)`)."
    }

    /// The line the first use of a session says after a change of description moved its tokens to `origins`.
    package static func movedNotice(_ server: ServerURL, _ origins: [ServerURL]) -> String {
        let list = origins.map(\.string).joined(separator: ", ")
        return "\(server)'s sessions now send tokens to \(list) too, as you allowed (`swaggerctl server show`)."
    }
}
