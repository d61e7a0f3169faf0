import FoundationEssentials
import SessionMachine
import SwaggerModel
import SwaggerOutput

/// What git asks a credential helper (gitcredentials(7)): `key=value` lines, of which the helper reads
/// `protocol`, `host`, `path`, `username` and `url`, and ignores the rest, as git's own helpers do.
package struct GitCredentialRequest: Sendable, Hashable {
    package var `protocol`: String?
    /// The host, with `:port` when it is not the default.
    package var host: String?
    /// The repository's path, without its leading `/`: sent only with `credential.useHttpPath`.
    package var path: String?
    package var username: String?

    /// The most git sends: a few hundred bytes. More than this is not git talking.
    package static let sizeLimit = 64 * 1024

    /// Reads the lines up to the first empty one or the end.
    package init(text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = String(line[line.index(after: equals)...])
            switch line[..<equals] {
            case "protocol": self.protocol = value.lowercased()
            case "host": host = value.lowercased()
            case "path": path = value
            case "username": username = value
            case "url": read(url: value)
            default: continue
            }
        }
    }

    /// `url=`, which stands for the fields it holds.
    private mutating func read(url text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            let host = components.percentEncodedHost
        else { return }
        self.protocol = scheme.lowercased()
        self.host = (components.port.map { "\(host):\($0)" } ?? host).lowercased()
        let path = components.percentEncodedPath.drop { $0 == "/" }
        self.path = path.isEmpty ? nil : String(path)
        if let user = components.user { username = user }
    }

    /// The URL git is about to send the credential to, its path with the dot segments removed as the server will
    /// remove them; `nil` when git named no http or https host.
    var url: URL? {
        guard let scheme = self.protocol, scheme == "http" || scheme == "https", let host, !host.isEmpty,
            !host.contains(where: { "/?#@".contains($0) })
        else { return nil }
        return URL(string: "\(scheme)://\(host)/\(path.map(Self.removingDotSegments) ?? "")")
    }

    /// `path` (without its leading `/`) with its `.` and `..` segments applied, as RFC 3986 §5.2.4 removes them:
    /// `sub/../repo` is `repo`, which is where the request goes. `%2E` is a dot there too (§6.2.2.2).
    static func removingDotSegments(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment.lowercased().replacing("%2e", with: ".") {
            case ".":
                if isLast { kept.append("") }
            case "..":
                _ = kept.popLast()
                if isLast { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return kept.joined(separator: "/")
    }

    /// The session to answer with, from `records` (most recently active first), among those on the origin git names
    /// and of the account it names when it names one: the active one when git names no path (the first, whatever
    /// its server's path), else the one whose server's path holds the repository's most closely. A credential goes
    /// to the origin of the session it came from, and nowhere else.
    package func session(among records: [SessionRecord]) -> SessionRecord? {
        guard let url else { return nil }
        let gitPath = url.path(percentEncoded: true)
        let candidates = records.filter { record in
            guard record.server.isSameOrigin(url) else { return false }
            guard path != nil else { return true }
            let serverPath = record.server.url.path(percentEncoded: true)
            return serverPath.isEmpty || gitPath == serverPath || gitPath.hasPrefix(serverPath + "/")
        }
        .filter { record in
            guard let username else { return true }
            return record.name == username || record.username == username
                || (record.name.contains("@") && record.name.lowercased() == username.lowercased())
        }
        guard path != nil else { return candidates.first }
        let deepest = candidates.map { $0.server.url.path(percentEncoded: true).count }.max()
        return candidates.first { $0.server.url.path(percentEncoded: true).count == deepest }
    }
}

/// What swaggerctl answers git: the user name git sent, else the account's, the access token as the password,
/// and when it expires, so that git (2.41 and later) asks again rather than send a stale one. A session that signs
/// in by HTTP Basic answers its account and password themselves.
package enum GitCredentialAnswer {
    package static func text(_ token: UsableToken, for request: GitCredentialRequest) -> String {
        // A newline or a NUL would make the rest another key for git, and an escape sequence or a bidi override
        // would reach the terminal of a person who runs `git credential fill`: every control and format character
        // is left out.
        func clean(_ value: String) -> String? {
            var scalars = value.unicodeScalars
            scalars.removeAll(where: TerminalText.isUnsafe)
            return scalars.isEmpty ? nil : String(scalars)
        }
        // A Basic session's token is the account and password, which git sends as its own Basic: handed over as
        // the token, git would wrap it again.
        if let pair = token.use.basicCredentials(in: token.value) {
            guard let user = clean(pair.user), clean(pair.password) == pair.password else { return "" }
            return "username=\(user)\npassword=\(pair.password)\n"
        }
        let username = request.username.flatMap(clean) ?? token.account.flatMap(clean) ?? "swaggerctl"
        var lines = ["username=\(username)", "password=\(token.value)"]
        if let expiry = token.expiresAt {
            lines.append("password_expiry_utc=\(Int64(expiry.timeIntervalSince1970.rounded(.down)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The error for `--setup` on a server with no session: git would ask this program for nothing it has.
    static func noSession(on server: ServerURL) -> SwaggerError {
        SwaggerError(
            .authentication,
            "No session on \(server) for git to use. Log in first: `swaggerctl login -s \(CurlLine.quoted(server.string))`, then run --setup again."
        )
    }

    /// The `git config` lines that make swaggerctl git's helper for `server`'s origin, as `gh auth setup-git`
    /// writes them: the first clears helpers configured more generally, so that only this one answers there.
    /// - Parameters:
    ///   - server: The server whose origin git asks this program about.
    ///   - program: This program's path, which git runs through a shell.
    package static func setup(for server: ServerURL, program: String) -> String {
        let origin = ServerURL.origin(of: server.url)?.absoluteString ?? server.string
        let key = "credential.\(origin).helper"
        let helper = "!\(CurlLine.quoted(program)) git-credential"
        return "git config --global \(CurlLine.quoted(key)) ''\n"
            + "git config --global --add \(CurlLine.quoted(key)) \(CurlLine.quoted(helper))\n"
    }
}
