import Foundation
import HummingbirdBcrypt
import NIOPosix
import SwaggerAPI

/// The demo server's accounts: e-mail, bcrypt password hash and profile.
public struct AccountDirectory: Sendable {
    struct Account: Sendable {
        var email: String
        var passwordHash: String
        var profile: Components.Schemas.User
    }

    /// One entry of a `--users` file.
    public struct Seed: Sendable, Decodable {
        /// The login e-mail.
        public var email: String
        /// The password in clear; it is hashed with bcrypt when the server starts.
        public var password: String
        /// The profile that `GET /User/User` returns. Any fields, including ones the API does not name.
        public var profile: Components.Schemas.User?

        /// Creates a seed.
        /// - Parameters:
        ///   - email: The login e-mail.
        ///   - password: The password in clear.
        ///   - profile: The profile to return.
        public init(email: String, password: String, profile: Components.Schemas.User? = nil) {
            self.email = email
            self.password = password
            self.profile = profile
        }
    }

    /// The built-in account.
    public static let demoEmail = "demo@example.com"
    /// The built-in account's password.
    public static let demoPassword = "demo-password"

    private let accounts: [String: Account]
    /// A hash to verify against when the e-mail is unknown, so that a miss takes as long as a hit.
    private let decoyHash: String

    /// Hashes the seeds' passwords (in parallel, on NIO's thread pool) and builds the directory.
    /// - Parameters:
    ///   - seeds: The accounts; the built-in demo account is added unless a seed uses its e-mail.
    ///   - cost: The bcrypt cost factor, 4 to 31.
    /// - Returns: The directory.
    /// - Throws: When the thread pool is not running.
    public static func make(seeds: [Seed], cost: UInt8) async throws -> AccountDirectory {
        var all = seeds
        if !all.contains(where: { $0.email.lowercased() == demoEmail }) {
            all.append(Seed(email: demoEmail, password: demoPassword, profile: DemoProfile.profile))
        }
        let hashes = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (offset, seed) in all.enumerated() {
                group.addTask {
                    (offset, try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(seed.password, cost: cost) })
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        var accounts: [String: Account] = [:]
        for (offset, seed) in all.enumerated() {
            let profile = seed.profile ?? Components.Schemas.User(email: seed.email)
            accounts[seed.email.lowercased()] = Account(
                email: seed.email, passwordHash: hashes[offset] ?? "", profile: profile)
        }
        let decoy = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash("decoy", cost: cost) }
        return AccountDirectory(accounts: accounts, decoyHash: decoy)
    }

    /// Reads a `--users` file: a JSON array of ``Seed``.
    /// - Parameter url: The file.
    /// - Returns: The seeds.
    /// - Throws: A message naming the file when it cannot be read or decoded.
    public static func seeds(from url: URL) throws -> [Seed] {
        do {
            return try JSONDecoder().decode([Seed].self, from: Data(contentsOf: url))
        } catch {
            throw DemoServerError("Cannot read the users file \(url.path): \(error.localizedDescription)")
        }
    }

    /// The account with `email` if `password` matches its hash. Takes bcrypt's time either way.
    func authenticate(email: String, password: String) async throws -> Account? {
        let account = accounts[email.lowercased()]
        let hash = account?.passwordHash ?? decoyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        return matches ? account : nil
    }

    /// The account for `email`.
    func account(email: String) -> Account? {
        accounts[email.lowercased()]
    }

    /// How many accounts there are.
    public var count: Int { accounts.count }
}

/// A start-up failure with a plain message.
public struct DemoServerError: Error, CustomStringConvertible {
    /// What went wrong, naming the file or option.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
