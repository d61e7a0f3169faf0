import Foundation
import GRDB

/// The demo server's state in SQLite: accounts, the token signing key, and refresh-token families.
///
/// With `--database PATH` it is a file, so a restarted server still accepts the sessions it issued; without
/// it, the same schema lives in an in-memory database that ends with the process.
package struct DemoDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating and migrating when needed) the database at `path`, or an in-memory one for `nil`.
    package static func open(path: String?) throws -> DemoDatabase {
        do {
            if let path {
                // Password hashes and live refresh-token hashes are for the owner only. The file is created
                // 0600 before SQLite opens it, and SQLite gives its journal the database file's mode.
                let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
                if descriptor >= 0 { close(descriptor) }
            }
            let writer: any DatabaseWriter =
                if let path { try DatabaseQueue(path: path) } else { try DatabaseQueue() }
            try migrator.migrate(writer)
            return DemoDatabase(writer: writer)
        } catch {
            throw DemoServerError("Cannot use the database \(path ?? ":memory:"): \(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "account") { table in
                // The e-mail lower-cased: logins ignore its case.
                table.primaryKey("key", .text)
                table.column("email", .text).notNull()
                table.column("passwordHash", .text).notNull()
                // The profile object exactly as seeded, `null`s included.
                table.column("profile", .blob).notNull()
            }
            try db.create(table: "signingKey") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("secret", .blob).notNull()
            }
            // One family per login; every refresh token it ever issued belongs to it.
            try db.create(table: "family") { table in
                table.primaryKey("id", .text)
                table.column("accountKey", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("revokedAt", .double)
            }
            try db.create(table: "refreshToken") { table in
                // SHA-256 of the token: a stolen database file holds no usable refresh token.
                table.primaryKey("hash", .blob)
                table.column("familyID", .text).notNull().references("family", onDelete: .cascade)
                table.column("expiresAt", .double).notNull()
                table.column("spentAt", .double)
            }
        }
        return migrator
    }
}
