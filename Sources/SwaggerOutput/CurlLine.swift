import FoundationEssentials
import SwaggerHTTP
import SwaggerModel

/// `api --dry-run`'s output: the request as a `curl` command line that a shell runs as it is, with the token left out
/// of it. In its place is the `swaggerctl token` call that gives it, so the line shows no secret and still works.
package enum CurlLine {
    /// - Parameters:
    ///   - method, url, headers, body: What would be sent.
    ///   - use: How the server takes the token.
    ///   - server: The session's server, which names the session with `account`.
    ///   - account: The account asked for, if any.
    ///   - input: `--input`'s file, `-` for stdin: curl reads the body from it rather than from the line.
    /// - Returns: The line, ended with a newline.
    package static func render(
        method: String, url: URL, headers: [HeaderField], body: Data?, token use: TokenUse, server: ServerURL,
        account: String?, input: String?
    ) -> String {
        var words = ["curl"]
        // curl sends GET, or POST with a body; HEAD is its -I, since -X HEAD would wait for a body.
        if method == "HEAD" {
            words.append("-I")
        } else if method != (body == nil ? "GET" : "POST") {
            words += ["-X", quoted(method)]
        }
        words.append(quoted(url.absoluteString))
        let selection = " -s \(quoted(server.string))" + (account.map { " -e \(quoted($0))" } ?? "")
        let value = use.scheme.map { "\($0) " } ?? ""
        // The header's name and scheme come from a description, and `$`, `` ` `` and `'` are characters of an HTTP
        // token: they are quoted as any other value, and only the substitution that follows is in double quotes,
        // so that the shell runs it.
        words += ["-H", quoted("\(use.header): \(value)") + "\"$(swaggerctl token\(selection))\""]
        for header in headers {
            words += ["-H", quoted("\(header.name): \(header.value)")]
        }
        if let input {
            words += ["--data-binary", quoted("@" + input)]
        } else if let body {
            words += ["--data-binary", quoted(String(decoding: body, as: UTF8.self))]
        }
        return words.joined(separator: " ") + "\n"
    }

    /// `text` as one word of a POSIX shell: in single quotes, where a quote inside is closed, escaped and opened
    /// again, unless every character stands for itself anywhere in a word. POSIX lists `~`, `=` and `%` among those
    /// that may need quoting (bash expands `x=~user`, zsh `=name`), so they are quoted too.
    package static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.utf8.allSatisfy(isPlain) {
            return text
        }
        return "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._/:@+,".utf8.contains(byte)
        }
    }
}
