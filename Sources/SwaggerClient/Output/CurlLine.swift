import FoundationEssentials
import SwaggerHTTP
import SwaggerModel

/// `api --dry-run`'s output: the request as a `curl` command line that a shell runs as it is, with the token left out
/// of it. In its place is the `swaggerctl token` call that gives it, so the line shows no secret and still works.
package enum CurlLine {
    /// - Parameters:
    ///   - request: What would be sent.
    ///   - use: How the server takes the token.
    ///   - server: The session's server, which names the session with `account`.
    ///   - account: The account asked for, if any.
    ///   - input: `--input`'s file, `-` for stdin: curl reads the body from it rather than from the line.
    package static func render(
        _ request: APIRequest, token use: TokenUse, server: ServerURL, account: String?, input: String?
    ) -> String {
        var words = ["curl"]
        // curl sends GET, or POST with a body; HEAD is its -I, since -X HEAD would wait for a body.
        if request.method == "HEAD" {
            words.append("-I")
        } else if request.method != (request.body == nil ? "GET" : "POST") {
            words += ["-X", request.method]
        }
        words.append(quoted(request.url.absoluteString))
        let selection = " -s \(quoted(server.string))" + (account.map { " -e \(quoted($0))" } ?? "")
        let value = use.scheme.map { "\($0) " } ?? ""
        // In double quotes, so that the shell runs the substitution; the header's name and scheme are tokens,
        // which need no escape there.
        words += ["-H", "\"\(use.header): \(value)$(swaggerctl token\(selection))\""]
        for header in request.headers {
            words += ["-H", quoted("\(header.name): \(header.value)")]
        }
        if let input {
            words += ["--data-binary", quoted("@" + input)]
        } else if let body = request.body {
            words += ["--data-binary", quoted(String(decoding: body, as: UTF8.self))]
        }
        return words.joined(separator: " ")
    }

    /// `text` in single quotes, for a POSIX shell: a quote inside is closed, escaped and opened again.
    package static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || "/:@%+=,".utf8.contains($0) }) {
            return text
        }
        return "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
