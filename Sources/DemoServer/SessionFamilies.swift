import Crypto
import Foundation
import GRDB

/// The refresh tokens the demo server has issued, grouped in families: one family per login.
///
/// Only a SHA-256 hash of each refresh token is kept. Every refresh spends the token presented and issues
/// the next one in the same family. A spent token presented again means that two parties hold the family's
/// tokens, one of them a thief, so the whole family is revoked and its access tokens stop working at
/// once (RFC 9700 §4.14.2).
struct SessionFamilies: Sendable {
    let database: DemoDatabase
    /// How long each refresh token is valid from when it is issued.
    let lifetime: Duration
    let clock: DemoClock

    /// A family's member: the e-mail and the family the tokens belong to.
    struct Member: Sendable, Hashable {
        var email: String
        var familyID: String
    }

    /// The outcome of presenting a refresh token.
    enum Rotation: Sendable, Hashable {
        /// The token was good and is now spent; `refreshToken` is the family's next one.
        case rotated(Member, refreshToken: String)
        /// The token is unknown, expired, or its family is revoked or its account gone.
        case rejected
        /// The token had been spent already: its family is now revoked.
        case reused(familyID: String)
    }

    /// Starts a family for a new login.
    /// - Returns: The family and its first refresh token.
    func start(accountKey: String, email: String) async throws -> (Member, String) {
        let now = clock.now
        let familyID = Self.randomToken(bytes: 16)
        let token = Self.randomToken(bytes: 32)
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO family (id, accountKey, createdAt) VALUES (?, ?, ?)",
                arguments: [familyID, accountKey, now.timeIntervalSince1970])
            try insert(token, familyID: familyID, now: now, in: db)
        }
        return (Member(email: email, familyID: familyID), token)
    }

    /// Spends `token` and issues the next one, in one transaction, so two refreshes with the same token can
    /// never both succeed.
    func rotate(_ token: String) async throws -> Rotation {
        let now = clock.now
        return try await database.writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT t.familyID, t.expiresAt, t.spentAt, f.revokedAt, a.email
                        FROM refreshToken t JOIN family f ON f.id = t.familyID
                        LEFT JOIN account a ON a.key = f.accountKey
                        WHERE t.hash = ?
                        """,
                    arguments: [Self.hash(token)])
            else { return .rejected }
            let familyID: String = row["familyID"]
            let revokedAt: Double? = row["revokedAt"]
            let spentAt: Double? = row["spentAt"]
            let expiresAt: Double = row["expiresAt"]
            guard revokedAt == nil else { return .rejected }
            if spentAt != nil {
                try revoke(familyID: familyID, now: now, in: db)
                return .reused(familyID: familyID)
            }
            guard let email: String = row["email"], expiresAt > now.timeIntervalSince1970 else { return .rejected }
            try db.execute(
                sql: "UPDATE refreshToken SET spentAt = ? WHERE hash = ?",
                arguments: [now.timeIntervalSince1970, Self.hash(token)])
            let next = Self.randomToken(bytes: 32)
            try insert(next, familyID: familyID, now: now, in: db)
            return .rotated(Member(email: email, familyID: familyID), refreshToken: next)
        }
    }

    /// Revokes the family of `refreshToken`, when it is known, and `familyID`, when given.
    /// - Returns: The ids of the families that were live and are now revoked.
    @discardableResult
    func revoke(refreshToken: String?, familyID: String?) async throws -> [String] {
        let now = clock.now
        return try await database.writer.write { db in
            var families: [String] = []
            if let refreshToken,
                let id = try String.fetchOne(
                    db, sql: "SELECT familyID FROM refreshToken WHERE hash = ?", arguments: [Self.hash(refreshToken)])
            {
                families.append(id)
            }
            if let familyID { families.append(familyID) }
            var revoked: [String] = []
            for id in Set(families).sorted() where try revoke(familyID: id, now: now, in: db) {
                revoked.append(id)
            }
            return revoked
        }
    }

    /// Whether access tokens of `familyID` are still honoured.
    func isLive(_ familyID: String) async throws -> Bool {
        try await database.writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT revokedAt IS NULL FROM family WHERE id = ?", arguments: [familyID]) ?? false
        }
    }

    private func insert(_ token: String, familyID: String, now: Date, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO refreshToken (hash, familyID, expiresAt) VALUES (?, ?, ?)",
            arguments: [Self.hash(token), familyID, now.timeIntervalSince1970 + lifetime.timeInterval])
    }

    /// Marks the family revoked; returns whether it was live.
    @discardableResult
    private func revoke(familyID: String, now: Date, in db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE family SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL",
            arguments: [now.timeIntervalSince1970, familyID])
        return db.changesCount > 0
    }

    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    /// Random bytes in base64url without padding.
    static func randomToken(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

extension Duration {
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
