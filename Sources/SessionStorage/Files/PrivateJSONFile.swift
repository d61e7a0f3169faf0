import FoundationEssentials
import SwaggerModel

/// A versioned JSON document in a ``PrivateDirectory``, read under a shared lock and changed under an
/// exclusive one.
///
/// A file that cannot be decoded is never discarded or overwritten: both reading and updating stop with an
/// error that names the file, so a person can inspect it.
struct PrivateJSONFile<Document: Codable & Sendable>: Sendable {
    let directory: PrivateDirectory
    let name: String
    /// What the file holds, for messages: "session list", "credentials file".
    let kind: String
    /// What moving a damaged file aside costs, for messages: "you will need to log in again".
    var loss = "you will need to log in again"
    /// How far each write survives a crash of the machine, unless an update says otherwise.
    var durability = PrivateDirectory.Durability.durable
    let empty: @Sendable () -> Document
    /// Reads the content from JSON values, for a file read at every command, where `Decodable` costs more than the
    /// rest of the command's reading (``SwaggerModel/JSONFields``); `nil` for `Decodable`.
    var reader: (@Sendable (JSONValue) throws(JSONFields.Mismatch) -> Document)? = nil

    var path: String { directory.fileURL(name).path }
    private var lockName: String { ".\(name).lock" }

    /// The current document, or an empty one when the file does not exist yet.
    func read() throws(SwaggerError) -> Document {
        guard try directory.exists() else { return empty() }
        return try directory.withLock(lockName, exclusive: false) { (locked) throws(SwaggerError) in
            // A temporary file left by a killed writer holds every token: it goes at the first chance.
            if locked { directory.removeStaleTemporaries(of: name) }
            return try load()
        }
    }

    /// Reads the document, lets `change` modify it, and writes it back atomically, all under one exclusive
    /// lock so that concurrent processes never lose each other's changes.
    /// - Parameter durability: How far this write survives a crash of the machine; the file's own by default.
    func update<Result>(
        durability: PrivateDirectory.Durability? = nil, _ change: (inout Document) throws(SwaggerError) -> Result
    ) throws(SwaggerError) -> Result {
        try directory.create()
        return try directory.withLock(lockName, exclusive: true) { (_) throws(SwaggerError) in
            directory.removeStaleTemporaries(of: name)
            var document = try load()
            let result = try change(&document)
            try directory.write(try encode(document), to: name, durability: durability ?? self.durability)
            return result
        }
    }

    /// Fails as ``update(durability:_:)`` would fail to write the file back, and changes nothing: what it would
    /// write goes to a temporary file that is removed at once, with no `fsync`.
    func checkWritable() throws(SwaggerError) {
        try directory.create()
        try directory.withLock(lockName, exclusive: true) { (_) throws(SwaggerError) in
            try directory.checkWritable(try encode(try load()), as: name)
        }
    }

    /// The document, from one decoding of the file: its version first, then its content.
    private func load() throws(SwaggerError) -> Document {
        guard let data = try directory.read(name) else { return empty() }
        if let reader {
            // As `Versioned` reads the file: its version first, then its content.
            guard case .object(let file)? = JSONValue(parsing: data), case .integer(let version)? = file["version"]
            else {
                throw corrupt("it is not a swaggerctl \(kind)")
            }
            guard version == Versioned.currentVersion else { throw otherVersion(version) }
            do throws(JSONFields.Mismatch) {
                return try reader(file["content"] ?? .null)
            } catch {
                throw corrupt("its content is damaged")
            }
        }
        do {
            return try JSONDecoder.swaggerctl.decode(Versioned.self, from: data).content
        } catch let failure as Versioned.Failure {
            switch failure {
            case .otherVersion(let version):
                throw otherVersion(version)
            case .damagedContent:
                throw corrupt("its content is damaged")
            }
        } catch {
            throw corrupt("it is not a swaggerctl \(kind)")
        }
    }

    private func encode(_ document: Document) throws(SwaggerError) -> Data {
        do {
            var data = try JSONEncoder.swaggerctl.encode(Versioned(content: document))
            data.append(0x0A)
            return data
        } catch {
            throw SwaggerError(.failure, "Could not encode the \(kind) for \(path).")
        }
    }

    private func otherVersion(_ version: some BinaryInteger) -> SwaggerError {
        corrupt("it has format version \(version), and this swaggerctl reads version \(Versioned.currentVersion)")
    }

    private func corrupt(_ reason: String) -> SwaggerError {
        SwaggerError(
            .failure,
            "Cannot use \(path): \(reason). It was left untouched; move it aside (\(loss)) or restore it.")
    }

    private struct Versioned: Codable {
        static var currentVersion: Int { 1 }

        /// Why a file that names its version cannot be read.
        enum Failure: Error {
            case otherVersion(Int)
            case damagedContent
        }

        var version = Self.currentVersion
        var content: Document

        init(content: Document) {
            self.content = content
        }

        /// Reads the version before the content, so that a file of another version, or one whose content is
        /// damaged, says so; one without a version is not a swaggerctl file at all, and throws what the decoder
        /// threw.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decode(Int.self, forKey: .version)
            guard version == Self.currentVersion else { throw Failure.otherVersion(version) }
            do {
                content = try container.decode(Document.self, forKey: .content)
            } catch {
                throw Failure.damagedContent
            }
        }

        enum CodingKeys: String, CodingKey {
            case version
            case content
        }
    }
}
