import FoundationEssentials
import NIOHTTP1
import SwaggerModel

/// A document read without credentials, for discovery: its body, and what its answer's headers say of it.
package struct FetchedDocument: Sendable, Hashable {
    package var body: Data
    /// `Link`, which may name the service's description (RFC 8631).
    package var link: String?
    /// `ETag` and `Last-Modified`, to ask later whether it changed.
    package var etag: String?
    package var lastModified: String?

    package init(body: Data, link: String? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.body = body
        self.link = link
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What an address answered to a `GET` without credentials: its status, and where a redirect points.
package struct ProbeAnswer: Sendable, Hashable {
    package var status: Int
    package var location: String?

    package init(status: Int, location: String? = nil) {
        self.status = status
        self.location = location
    }
}

/// What a server said when asked for a document again.
package enum DocumentAnswer: Sendable, Hashable {
    case fetched(FetchedDocument)
    /// 304: the copy kept is still the server's.
    case unchanged
    /// Any other status: it is not there.
    case missing
}

extension APIService {
    /// The largest discovery document read: OpenAPI documents of large APIs run to megabytes.
    static let documentLimit = 16 << 20

    /// Reads a document that needs no credentials, for discovery.
    /// - Returns: A successful answer; `nil` for any other status, which means it is not there.
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    package func document(at url: URL) async throws(APIServiceError) -> FetchedDocument? {
        if case .fetched(let document) = try await document(at: url, unlessMatching: nil, modifiedSince: nil) {
            return document
        }
        return nil
    }

    /// Asks `url` for nothing but its status: a `GET` without credentials, whose body is read no further than a
    /// few kilobytes, and whose redirect is not followed. Discovery's evidence that an endpoint exists (a login that
    /// answers 405 to a `GET`) and where an address sends people.
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    package func probe(_ url: URL) async throws(APIServiceError) -> ProbeAnswer {
        let response = try await send(
            OutgoingRequest(.GET, url, headers: ["Accept": "application/json, */*;q=0.1"], limit: 16 << 10))
        return ProbeAnswer(status: response.status, location: response.header("Location"))
    }

    /// What `url` answers to a `GET` without credentials, whatever its status, its body read no further than 64 KiB:
    /// how a protocol announces itself (a version document, a `WWW-Authenticate` that names the software). Its
    /// redirect is not followed.
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    package func ask(_ url: URL) async throws(APIServiceError) -> APIResponse {
        try await send(OutgoingRequest(.GET, url, headers: ["Accept": "application/json, */*;q=0.1"], limit: 64 << 10))
    }

    /// Reads a document that needs no credentials again, asking the server to answer 304 when it still has the
    /// copy whose `ETag` or `Last-Modified` is given (RFC 9110 §13.1).
    /// - Throws: ``APIServiceError`` when the server cannot be reached or answers with something that is not HTTP.
    package func document(at url: URL, unlessMatching etag: String?, modifiedSince lastModified: String?)
        async throws(APIServiceError) -> DocumentAnswer
    {
        var headers: HTTPHeaders = ["Accept": "application/json, application/yaml;q=0.9, */*;q=0.1"]
        if let etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        let response = try await send(OutgoingRequest(.GET, url, headers: headers, limit: Self.documentLimit))
        if response.status == 304, etag != nil || lastModified != nil { return .unchanged }
        guard response.isSuccess else { return .missing }
        return .fetched(
            FetchedDocument(
                body: response.body, link: response.header("Link"), etag: response.header("ETag"),
                lastModified: response.header("Last-Modified")))
    }
}
