import Crypto
import Foundation
import GRDB
import HummingbirdBcrypt
import NIOPosix
import OpenAPIRuntime
import SwaggerAPI

/// The demo server's accounts: e-mail, password hash and profile, kept in the ``DemoDatabase``.
package struct AccountDirectory: Sendable {
    struct Account: Sendable {
        var email: String
        var passwordHash: String
        /// The profile object as seeded, `null`s included.
        var profile: Data
    }

    /// One entry of a `--users` file.
    package struct Seed: Sendable, Decodable {
        package var email: String
        /// The password in clear; it is hashed when the server starts.
        package var password: String
        /// The profile object as JSON, exactly as given, so that explicit `null`s are sent as `null`.
        package var profile: Data?

        /// - Parameter profile: The profile to return; `nil` for one with only the e-mail.
        package init(email: String, password: String, profile: Components.Schemas.User? = nil) {
            self.email = email
            self.password = password
            self.profile = profile.flatMap { try? JSONEncoder().encode($0) }
        }

        private enum CodingKeys: String, CodingKey {
            case email, password, profile
        }

        /// Decodes a seed, keeping the profile's JSON as it was written.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            email = try container.decode(String.self, forKey: .email)
            password = try container.decode(String.self, forKey: .password)
            // OpenAPIObjectContainer keeps a `null` member as a member, where the generated User drops it.
            profile = try container.decodeIfPresent(OpenAPIObjectContainer.self, forKey: .profile)
                .map { try JSONEncoder().encode($0) }
        }
    }

    /// The built-in account.
    package static let demoEmail = "demo@example.com"
    /// The built-in account's password.
    package static let demoPassword = "demo-password"

    private let database: DemoDatabase
    /// A hash to verify against when the e-mail is unknown, so that a miss takes as long as a hit.
    private let decoyHash: String

    /// Hashes the seeds' passwords (in parallel, on NIO's thread pool) and stores the accounts, replacing
    /// any stored before under the same e-mail. Accounts already in a database file and not seeded again
    /// are kept.
    /// - Parameters:
    ///   - seeds: The accounts; the built-in demo account is added unless a seed uses its e-mail.
    ///   - cost: The bcrypt cost factor, 4 to 31.
    /// - Throws: ``DemoServerError`` for a seed whose profile does not match the API, or a database failure.
    package static func make(seeds: [Seed], cost: UInt8, database: DemoDatabase) async throws -> AccountDirectory {
        var all = seeds
        if !all.contains(where: { $0.email.lowercased() == demoEmail }) {
            all.append(Seed(email: demoEmail, password: demoPassword, profile: DemoProfile.profile))
        }
        for seed in all {
            if let profile = seed.profile, (try? DemoProfile.wire(profile)) == nil {
                throw DemoServerError("The profile of \(seed.email) does not match the API's User schema.")
            }
        }
        let passwords = all.map(\.password)
        let hashes = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (offset, password) in passwords.enumerated() {
                group.addTask { (offset, try await hash(password, cost: cost)) }
            }
            // The hashes finish in any order; they are put back in the seeds' order.
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let seeded = zip(all, hashes).map { $0 }
        try await database.writer.write { db in
            for (seed, passwordHash) in seeded {
                let profile = try seed.profile ?? JSONEncoder().encode(Components.Schemas.User(email: seed.email))
                try db.execute(
                    sql: "INSERT OR REPLACE INTO account (key, email, passwordHash, profile) VALUES (?, ?, ?, ?)",
                    arguments: [seed.email.lowercased(), seed.email, passwordHash, profile])
            }
        }
        return AccountDirectory(database: database, decoyHash: try await hash("decoy", cost: cost))
    }

    /// Reads a `--users` file: a JSON array of ``Seed``.
    package static func seeds(from url: URL) throws -> [Seed] {
        do {
            return try JSONDecoder().decode([Seed].self, from: Data(contentsOf: url))
        } catch {
            throw DemoServerError("Cannot read the users file \(url.path): \(error.localizedDescription)")
        }
    }

    /// The account with `email` if `password` matches its hash. Takes bcrypt's time either way.
    func authenticate(email: String, password: String) async throws -> Account? {
        let account = try await self.account(email: email)
        let hash = account?.passwordHash ?? decoyHash
        let digest = Self.prehash(password)
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(digest, hash: hash) }
        return matches ? account : nil
    }

    func account(email: String) async throws -> Account? {
        try await database.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT email, passwordHash, profile FROM account WHERE key = ?",
                arguments: [email.lowercased()]
            ).map { Account(email: $0["email"], passwordHash: $0["passwordHash"], profile: $0["profile"]) }
        }
    }

    package func count() async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account") ?? 0 }
    }

    private static func hash(_ password: String, cost: UInt8) async throws -> String {
        let digest = prehash(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(digest, cost: cost) }
    }

    /// bcrypt reads at most 72 bytes and stops at a NUL, so two different passwords could share a hash.
    /// Hashing first with SHA-256 and encoding in base64 gives bcrypt 44 printable bytes that stand for
    /// the whole password.
    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}

/// A start-up failure with a plain message.
package struct DemoServerError: Error, CustomStringConvertible {
    /// What went wrong, naming the file or option.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
