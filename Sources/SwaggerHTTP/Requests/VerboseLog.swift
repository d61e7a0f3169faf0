import FoundationEssentials
import NIOCore
import NIOHTTP1
import SwaggerModel

/// Describes each attempt for `--verbose` (and `SWAGGERCTL_DEBUG=1`), as `curl -v` does: method, URL and proxy,
/// status and time, headers, and bodies as sent and received, cut to ``bodyLimit`` bytes. Every secret is shown as
/// `[redacted]` by the ``Redactor``, and each line is sanitised where it is printed.
struct VerboseLog: Sendable {
    /// How much of a body is shown.
    static let bodyLimit = 400

    var log: @Sendable (String) -> Void
    /// The command's secrets, read afresh for each part: a login or refresh answer's tokens join them between the
    /// answer's arrival and its description.
    var secrets: SecretBook
    var proxy: ProxySettings.Proxy?

    /// The request line, the headers as sent, and the body. `target` is the URL as the log names it.
    func request(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: Data?) {
        let redactor = secrets.redactor
        log("> \(method.rawValue) \(redactor.scrub(target))" + (proxy.map { " (through the proxy \($0))" } ?? ""))
        for (name, value) in headers { log("> \(name): \(redactor.header(name, value))") }
        if let body, !body.isEmpty {
            log("> " + redactor.body(body, contentType: headers.first(name: "Content-Type"), limit: Self.bodyLimit))
        }
    }

    /// The status line, with the time the attempt took, the headers and the body.
    func response(_ answer: TransportAnswer, after elapsed: Duration) {
        let code = answer.head.status.code
        // The reason phrase is the code's standard one, whatever the server wrote.
        let phrase = HTTPResponseStatus(statusCode: Int(code)).reasonPhrase
        let milliseconds = Int((elapsed.timeInterval * 1000).rounded())
        // The version as the response had it, as `-i` and curl -v show it.
        let version = APIService.statusLineVersion(answer.head.version)
        log("< \(version) \(code)\(phrase.isEmpty ? "" : " " + phrase) (\(milliseconds) ms)")
        let redactor = secrets.redactor
        for (name, value) in answer.head.headers { log("< \(name): \(redactor.header(name, value))") }
        guard answer.body.readableBytes > 0 else { return }
        let body = answer.body.withUnsafeReadableBytes { Data($0) }
        let contentType = answer.head.headers.first(name: "Content-Type")
        // Line by line, as received, so that a body the server indented reads as it does in a pipe.
        let shown = redactor.body(body, contentType: contentType, limit: Self.bodyLimit)
        for line in shown.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            log("< " + line)
        }
    }
}
