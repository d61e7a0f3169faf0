import FoundationEssentials
import SessionStorage
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerServers

extension SessionController {
    /// How old a copy of a document may be before the server is asked, with its validators, whether it changed.
    static let documentCheckAge: TimeInterval = 3600

    /// The operations of `server`'s OpenAPI document: from the copy kept in the cache folder, asked again of the
    /// server (a conditional request, answered 304 when nothing changed) when `refresh` says so, when the copy is
    /// over an hour old, or when it has no operation called `wanted`. Without a copy, the document is looked for
    /// where the description names it and then where the frameworks publish theirs, and kept.
    /// - Throws: `SwaggerError` when the server publishes no document that can be read, or, with `refresh`, when it
    ///   cannot be asked.
    package func operations(on server: ServerURL, refresh: Bool, wanted: String? = nil)
        async throws(SwaggerError) -> OperationIndex
    {
        let entry = try servers.entry(for: server)
        if let entry, let copy = entry.document, let cache = documents, let index = cache.index(of: copy) {
            let age = now().timeIntervalSince(copy.fetchedAt)
            let lacking = wanted.map { (try? index.operation(named: $0)) == nil } ?? false
            guard refresh || lacking || !(0...Self.documentCheckAge).contains(age) else { return index }
            return try await recheck(copy, of: entry, strict: refresh) ?? index
        }
        return try await findDocument(of: server, entry: entry)
    }

    /// Asks the server whether the copy changed, and keeps the new one if it did.
    /// - Returns: The new copy's operations; `nil` when it did not change, or when the server could not say, which is
    ///   a warning unless `strict`.
    private func recheck(_ copy: DocumentCopy, of entry: ServerEntry, strict: Bool)
        async throws(SwaggerError) -> OperationIndex?
    {
        let server = entry.server
        let answer: DocumentAnswer
        do throws(APIServiceError) {
            answer = try await service(for: nil, entry: entry).document(
                at: copy.url, unlessMatching: copy.etag, modifiedSince: copy.lastModified)
        } catch {
            let failure = error.rendered(
                on: server, account: nil, description: entry.serverDescription, in: messageContext)
            if strict { throw failure }
            warn("the document's copy was not checked for changes: \(failure.message)")
            return nil
        }
        switch answer {
        case .unchanged:
            var entry = entry
            entry.document?.fetchedAt = now()
            try servers.save(entry)
            return nil
        case .fetched(let fetched):
            if let index = OperationIndex.read(fetched.body, at: copy.url) {
                keep(fetched, index, from: copy.url, entry: entry)
                return index
            }
            if strict { throw SwaggerError.unreadableDocument(copy.url) }
            return nil
        case .missing:
            if strict { throw SwaggerError.unreadableDocument(copy.url) }
            return nil
        }
    }

    /// Looks for the server's document where its description names it, then where the frameworks put theirs.
    private func findDocument(of server: ServerURL, entry: ServerEntry?) async throws(SwaggerError) -> OperationIndex {
        let description = entry?.serverDescription
        let service = service(for: nil, entry: entry)
        for url in Discovery.openAPIDocuments(for: server, named: description?.document) {
            let fetched: FetchedDocument?
            do throws(APIServiceError) {
                fetched = try await service.document(at: url)
            } catch {
                guard error.meansUnreachable else { continue }
                throw error.rendered(on: server, account: nil, description: description, in: messageContext)
            }
            guard let fetched, let index = OperationIndex.read(fetched.body, at: url) else { continue }
            keep(fetched, index, from: url, entry: entry)
            return index
        }
        throw SwaggerError.noDocument(server)
    }

    /// Keeps a document's copy and its operations, and notes the copy in the server's entry.
    private func keep(_ fetched: FetchedDocument, _ index: OperationIndex, from url: URL, entry: ServerEntry?) {
        guard var entry, let copy = keepCopy(of: fetched, from: url, for: entry.server) else { return }
        documents?.keep(index, of: copy)
        entry.document = copy
        do {
            try servers.save(entry)
        } catch {
            warn("the server registry could not note the document's copy: \(error.message)")
        }
    }
}

extension DocumentCache {
    /// The operations read from `copy`: as they were kept beside it, else read from it again and kept.
    package func index(of copy: DocumentCopy) -> OperationIndex? {
        if let kept = try? reading(.operations, of: copy.file),
            let index = try? JSONDecoder().decode(OperationIndex.self, from: kept),
            index.format == OperationIndex.currentFormat
        {
            return index
        }
        guard let data = try? read(copy.file), let index = OperationIndex.read(data, at: copy.url) else { return nil }
        keep(index, of: copy)
        return index
    }

    /// Keeps what was read from `copy` beside it, and the completion's lines; a reading that cannot be kept is read
    /// again next time.
    func keep(_ index: OperationIndex, of copy: DocumentCopy) {
        guard let data = try? JSONEncoder().encode(index) else { return }
        try? saveReading(data, .operations, of: copy.file)
        try? saveReading(Data(CompletionNames.text(of: index).utf8), .names, of: copy.file)
    }
}
