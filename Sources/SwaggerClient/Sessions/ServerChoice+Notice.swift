import FoundationEssentials
import SwaggerModel
import SwaggerServers

extension SessionController.ServerChoice {
    /// What discovery found, in a line, and a line for each step that had several candidates, naming the flag
    /// that picks another: `Found in /api/schema/: login POST /token/ (with provider=db), refresh POST
    /// /token/refresh/, logout POST /token/blacklist/, profile GET /users/me/, token as Authorization: Token.` A document on the
    /// server's host is named by its path, and the first of several stands for them all, so that the line fits
    /// two lines of a terminal; `-v` shows every request. A part that the person gave, or that a preset says, is
    /// not credited to the documents. Empty when no document was read, and when the document showed the server to
    /// be a preset's, with nothing chosen among others: it is the server that preset describes, which `server show`
    /// says whole.
    var discoveryNotices: [String] {
        guard let finding, !finding.documents.isEmpty else { return [] }
        if finding.layer?.json[path: "preset"] != nil, finding.described?.contested.isEmpty ?? true { return [] }
        let documents = finding.documents.map(\.absoluteString)
        /// Whether `part` came from the documents.
        func found(_ part: String) -> Bool {
            guard let source = sources[part] else { return false }
            return documents.contains(where: source.contains)
        }
        func address(_ url: URL) -> String {
            // On the server's host, its path says where; anywhere else, the whole URL, host and all.
            server.isSameOrigin(url) ? url.pathAndQuery : url.absoluteString
        }
        // A document outside the path the person typed (the origin's /.well-known/, one a catalog names) says so,
        // unless the person named it.
        let givenDocument = sources["document"] == "given"
        let named = finding.documents.map { url in
            givenDocument || url.absoluteString.hasPrefix(server.string + "/")
                ? address(url) : "\(address(url)) (outside \(server))"
        }
        let steps = foundSteps(found)
        let given = ["login", "refresh", "revocation", "profile"].filter { sources[$0] == "given" }
        let others = given.isEmpty ? "" : "; \(given.joined(separator: ", ")) given"
        let read = named.count > 1 ? "\(named[0]) (and \(named.count - 1) more)" : named[0]
        let nothingUsed = "nothing that was used"
        var lines = [
            "Found in \(read): \(steps.isEmpty ? nothingUsed : steps.joined(separator: ", "))\(others)."
        ]
        // A choice that a flag overrode is not worth a line.
        for contest in finding.described?.contested ?? [] where !given.contains(Self.part(of: contest.step)) {
            lines.append(
                "For the \(contest.step), chose \(contest.chosen) over \(contest.others.prefix(3).joined(separator: ", "))"
                    + "\(contest.others.count > 3 ? " and \(contest.others.count - 3) more" : ""); choose another with "
                    + "`swaggerctl server set \(server) \(contest.flag) PATH`.")
        }
        return lines
    }

    /// The steps that `found` says came from the documents, each as the request it sends.
    private func foundSteps(_ found: (String) -> Bool) -> [String] {
        let description = serverDescription
        var steps: [String] = []
        if found("login") {
            if let login = description.login.request {
                let fixed = login.fixedMembers
                let members = fixed.keys.sorted().filter { $0 != "grant_type" }.map { name in
                    "\(name)=\(fixed[name].map(Self.memberText) ?? "")"
                }
                steps.append(
                    "login \(request(login))" + (members.isEmpty ? "" : " (with \(members.joined(separator: ", ")))"))
            } else {
                steps.append("every request signed in with HTTP Basic")
            }
        }
        if found("refresh") {
            steps.append(description.refresh.map { "refresh \(request($0.request))" } ?? "no refresh")
        }
        if found("revocation") {
            steps.append(description.revocation?.requests.first.map { "logout \(request($0.template))" } ?? "no logout")
        }
        if found("profile") { steps.append("profile \(request(description.profile.request))") }
        if found("token"), description.token != .bearer { steps.append("token as \(description.token.text)") }
        return steps
    }

    /// A step's request: on the server's host, its path says where, as it is written, two slashes and all.
    private func request(_ template: RequestTemplate) -> String {
        let shown = template.address
        guard let url = template.originURL, server.isSameOrigin(url),
            let origin = ServerURL.origin(of: url)?.absoluteString, shown.hasPrefix(origin)
        else { return "\(template.method) \(shown)" }
        return "\(template.method) \(shown.dropFirst(origin.count))"
    }

    /// The description language's part that a discovery step is.
    private static func part(of step: String) -> String {
        step == "logout" ? "revocation" : step
    }

    /// A member's value as a person would write it.
    private static func memberText(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }
}
