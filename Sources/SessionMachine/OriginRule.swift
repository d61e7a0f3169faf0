import FoundationEssentials
import SwaggerModel

/// The origin rule: a password, a token or a sign-in goes only to the origin of the server the person named, and to
/// the origins they allowed for it (``ServerDescription/allowedOrigins``). A description's endpoints may come from
/// a document the server publishes, whose `servers:`, `basePath` or metadata can name any host; the rule is what
/// keeps such a document from sending the secrets elsewhere.
package enum OriginRule {
    /// A step of the description whose endpoint is on an origin nobody allowed.
    package struct Foreign: Sendable, Hashable {
        /// The step: `login`, `refresh`, `revocation`, `profile`, `device authorization`.
        package var step: String
        package var origin: ServerURL

        package init(step: String, origin: ServerURL) {
            self.step = step
            self.origin = origin
        }
    }

    /// The first step of `description` that would go to an origin other than `server`'s and not allowed for it;
    /// `nil` when every step stays where it may.
    package static func refusal(_ server: ServerURL, _ description: ServerDescription) -> Foreign? {
        steps(server, description).first { !description.allowedOrigins.contains($0.origin) }
    }

    /// The origins other than `server`'s that `description` sends to because the person allowed them, for the line
    /// that says so at each login, `-q` or not.
    package static func allowedOthers(_ server: ServerURL, _ description: ServerDescription) -> [ServerURL] {
        var origins: [ServerURL] = []
        for step in steps(server, description) where !origins.contains(step.origin) { origins.append(step.origin) }
        return origins.filter(description.allowedOrigins.contains)
    }

    /// The origins other than `server`'s that `new` may send a session's secrets to and `old` did not: its steps'
    /// and the origins it allows, in that order. A change of description that reaches any moves the tokens of the
    /// sessions kept under it, which the person is asked about.
    package static func moved(_ server: ServerURL, from old: ServerDescription?, to new: ServerDescription)
        -> [ServerURL]
    {
        func reached(_ description: ServerDescription) -> [ServerURL] {
            steps(server, description).map(\.origin) + description.allowedOrigins
        }
        let before = Set(old.map(reached) ?? [])
        var moved: [ServerURL] = []
        for origin in reached(new) where !before.contains(origin) && !moved.contains(origin) { moved.append(origin) }
        return moved
    }

    /// The steps on another origin than `server`'s, in the description's order; the browser's sign-in page with them.
    private static func steps(_ server: ServerURL, _ description: ServerDescription) -> [Foreign] {
        let own = ServerURL(originOf: server.url)
        var named = description.steps
        if let authorization = description.authorizationURL { named.append(("sign-in page", authorization)) }
        return named.compactMap { step, url in
            guard let origin = ServerURL(originOf: url) else { return Foreign(step: step, origin: server) }
            return origin == own ? nil : Foreign(step: step, origin: origin)
        }
    }
}
