import FoundationEssentials
import SwaggerModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder that only its owner can read: 0700, holding files that are 0600.
///
/// Files are replaced atomically (a temporary file in the same folder, `fsync`, then `rename`), so a reader
/// sees either the old or the new content, never a torn one.
package struct PrivateDirectory: Sendable {
    package let url: URL

    package init(_ url: URL) {
        self.url = url
    }

    var path: String { url.path }

    package func fileURL(_ name: String) -> URL {
        url.appending(path: name, directoryHint: .notDirectory)
    }

    /// Whether the folder exists.
    /// - Throws: ``SwaggerError`` when something other than a folder is in its place.
    func exists() throws(SwaggerError) -> Bool {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        guard isDirectory else {
            throw SwaggerError(.failure, "\(path) is not a folder. Move it aside or set SWAGGERCTL_CONFIG_DIR.")
        }
        return true
    }

    /// Creates the folder and any missing parents with mode 0700, and takes every permission of group and others
    /// away from the folder itself. It never grants one: a folder its owner made read-only stays so, and the
    /// writes that follow say so. A folder of another user is refused, never changed: run as root, swaggerctl
    /// must not change someone else's files.
    package func create() throws(SwaggerError) {
        var mode: mode_t = 0o700
        if try exists() {
            var status = stat()
            if stat(path, &status) == 0, status.st_uid != geteuid() {
                throw SwaggerError(
                    .failure,
                    "\(path) belongs to another user (uid \(status.st_uid)); it is not used. Set "
                        + "SWAGGERCTL_CONFIG_DIR or SWAGGERCTL_CACHE_DIR.")
            }
            mode = status.st_mode & 0o700
        } else {
            // Each folder is made 0700 by mkdir itself: one made 0777 and changed after (as Foundation's
            // createDirectory does under umask 000) is open to anyone, if only for an instant.
            var missing: [String] = []
            var folder = path
            while !folder.isEmpty, folder != "/", access(folder, F_OK) != 0 {
                missing.append(folder)
                let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
                guard let slash = trimmed.lastIndex(of: "/") else { break }
                folder = String(trimmed[..<slash])
            }
            for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw SwaggerError(
                    .failure,
                    "Could not create the folder \(path): \(Self.errnoText()). Set SWAGGERCTL_CONFIG_DIR to a folder "
                        + "you can write.")
            }
        }
        guard chmod(path, mode) == 0 else {
            throw SwaggerError(.failure, "Could not make \(path) private (mode 0700): \(Self.errnoText()).")
        }
    }

    /// Reads a whole file, or returns `nil` when it does not exist. A file that another user owns, or that
    /// others may read or write, is refused: it may not hold what swaggerctl wrote, and what swaggerctl wrote
    /// may no longer be private.
    func read(_ name: String) throws(SwaggerError) -> Data? {
        let file = fileURL(name).path
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw SwaggerError(.failure, "Could not read \(file): \(Self.errnoText()).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SwaggerError(.failure, "Could not read \(file): \(Self.errnoText()).")
        }
        try Self.requireOwned(status, file, else: "Move it aside, or set SWAGGERCTL_CONFIG_DIR.")
        let mode = status.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw SwaggerError(
                .failure,
                "\(file) is open to others (mode 0\(String(mode, radix: 8))), so it is not used. If no one read "
                    + "it, `chmod 600` it; else log in again.")
        }
        do throws(DescriptorIO.Failure) {
            return try DescriptorIO.readAll(descriptor)
        } catch {
            throw SwaggerError(.failure, "Could not read \(file): \(error).")
        }
    }

    /// How much of a replacement survives a crash of the machine, not only of the process: a process that is
    /// killed leaves the old file or the new one in every case.
    package enum Durability: Sendable, Hashable {
        /// Nothing is waited for: after a crash of the machine the file may be old, new or even empty. Only for
        /// what can be fetched again.
        case cache
        /// The data reaches the disk before the rename, so after a crash the file is the old one or the new one,
        /// whole; the rename itself may be lost, leaving the old one.
        case whole
        /// As ``whole``, and the rename reaches the disk before the write returns.
        case durable
    }

    /// Replaces a file atomically with `data`, mode 0600, as durably as `durability` says: `durable` costs two
    /// `fsync`s, `whole` one, and `cache` none.
    package func write(_ data: Data, to name: String, durability: Durability = .durable) throws(SwaggerError) {
        let target = fileURL(name).path
        let temporary = try writeTemporary(data, for: name, sync: durability != .cache)
        guard rename(temporary, target) == 0 else {
            let reason = Self.errnoText()
            unlink(temporary)
            throw SwaggerError(.failure, "Could not replace \(target): \(reason).")
        }
        if durability == .durable { syncFolder() }
    }

    /// Fails as ``write(_:to:durability:)`` would fail to replace `name` with `data` (a folder that cannot be
    /// written, a full disk), and changes nothing: `data` goes to a temporary file that is removed at once,
    /// with no `fsync` and no rename.
    package func checkWritable(_ data: Data, as name: String) throws(SwaggerError) {
        unlink(try writeTemporary(data, for: name, sync: false))
    }

    /// Writes `data` to a new temporary file beside `name`, on the disk before it returns with `sync`, and
    /// returns its path.
    private func writeTemporary(_ data: Data, for name: String, sync: Bool) throws(SwaggerError) -> String {
        let temporary = fileURL(".\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SwaggerError(.failure, "Could not write in \(path): \(Self.errnoText()).")
        }
        var failure: DescriptorIO.Failure?
        do throws(DescriptorIO.Failure) {
            try DescriptorIO.writeAll(data, to: descriptor)
            if sync, fsync(descriptor) != 0 { throw DescriptorIO.Failure(code: errno) }
        } catch {
            failure = error
        }
        // close(2) can report a write that failed late, as on NFS.
        if close(descriptor) != 0, failure == nil { failure = DescriptorIO.Failure(code: errno) }
        if let failure {
            unlink(temporary)
            throw SwaggerError(.failure, "Could not write \(fileURL(name).path): \(failure).")
        }
        return temporary
    }

    /// Runs `body` while holding an advisory lock on the lock file `name`, exclusive or shared; `body` learns
    /// whether it holds one.
    ///
    /// The lock is an `flock(2)` on a file that is never replaced, so it serialises processes as well as
    /// threads that open it separately. A shared lock opens the lock file read-only and never creates it, so
    /// reading works in a folder that cannot be written. Without a lock file no writer has ever started, and
    /// the atomic replace keeps a reader whole in any case, so the read then goes ahead unlocked.
    func withLock<Result>(
        _ name: String, exclusive: Bool, _ body: (_ locked: Bool) throws(SwaggerError) -> Result
    ) throws(SwaggerError) -> Result {
        let lockPath = fileURL(name).path
        let descriptor: Int32
        if exclusive {
            descriptor = try Self.openLockFile(lockPath)
        } else {
            descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if descriptor < 0, errno == ENOENT { return try body(false) }
            guard descriptor >= 0 else {
                throw SwaggerError(.failure, "Could not open the lock file \(lockPath): \(Self.errnoText()).")
            }
            try Self.requireOwnedLock(descriptor, lockPath)
        }
        try Self.lock(descriptor, exclusive ? LOCK_EX : LOCK_SH, at: lockPath)
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try body(true)
    }

    /// Opens, creating it if need be, the lock file at `path` for an exclusive lock. O_NOFOLLOW: a symbolic link
    /// put in the lock's place must not make swaggerctl create its target.
    static func openLockFile(_ path: String) throws(SwaggerError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SwaggerError(.failure, "Could not open the lock file \(path): \(errnoText()).")
        }
        try requireOwnedLock(descriptor, path)
        return descriptor
    }

    /// Refuses, closing it, a lock file that another user made, in a folder they could write once: holding it would
    /// let them stall every command, and what a refresh leaves in it for those who wait would be theirs to write.
    private static func requireOwnedLock(_ descriptor: Int32, _ path: String) throws(SwaggerError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            // Read before `close`, which may set errno again.
            let reason = errnoText()
            close(descriptor)
            throw SwaggerError(.failure, "Could not open the lock file \(path): \(reason).")
        }
        do throws(SwaggerError) {
            try requireOwned(status, path, else: "Remove it, and `chmod 700` the folder.")
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The one owner check of every file swaggerctl opens in its folders: the data files, their locks, and each
    /// account's refresh lock and the note in it. `advice` says what to do.
    private static func requireOwned(_ status: stat, _ path: String, else advice: String) throws(SwaggerError) {
        guard status.st_uid != geteuid() else { return }
        throw SwaggerError(
            .failure, "\(path) belongs to another user (uid \(status.st_uid)), so it is not used. \(advice)")
    }

    /// The variable that sets ``lockTimeout``.
    package static let lockTimeoutVariable = "SWAGGERCTL_LOCK_TIMEOUT"

    /// How long a command waits for a lock that another process holds: `SWAGGERCTL_LOCK_TIMEOUT` seconds, else 60,
    /// far more than any refresh or logout holds one (each request is bounded by `SWAGGERCTL_TIMEOUT`). Read here,
    /// where every lock is taken, so that no caller can take one without the bound. A value the rule refuses is
    /// the command's usage error before any lock (`Configuration`); this reading never sees one.
    static let lockTimeout: Duration = {
        let text = getenv(lockTimeoutVariable).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return (try? Duration.seconds(of: lockTimeoutVariable, text, example: "60")) ?? .seconds(60)
    }()

    /// Takes the `flock(2)` `operation` on `descriptor`, the lock file at `path`, waiting at most ``lockTimeout``
    /// for another process to release it. On failure the descriptor is closed, and the error names the process
    /// that holds the lock, from `/proc/locks`.
    static func lock(_ descriptor: Int32, _ operation: Int32, at path: String) throws(SwaggerError) {
        let deadline = ContinuousClock.now + lockTimeout
        var pause = Duration.milliseconds(5)
        while flock(descriptor, operation | LOCK_NB) != 0 {
            switch errno {
            case EINTR:
                continue
            case EWOULDBLOCK where ContinuousClock.now < deadline:
                // Short at first, since most holders are done within milliseconds, and never more than 20 ms, so
                // that a waiter starts soon after the lock is let go (a blocking flock cannot be bounded).
                let (seconds, attoseconds) = pause.components
                var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                nanosleep(&wait, nil)
                pause = min(pause * 2, .milliseconds(20))
            case EWOULDBLOCK:
                let holder = Self.holder(of: descriptor).map { " by \($0)" } ?? ""
                close(descriptor)
                throw SwaggerError(
                    .failure,
                    "\(path) has been locked\(holder) for \(lockTimeout.secondsText); try again once it is done, "
                        + "or end it.")
            default:
                let reason = errnoText()
                close(descriptor)
                throw SwaggerError(.failure, "Could not lock \(path): \(reason).")
            }
        }
    }

    /// The process that holds a lock on the file open at `descriptor`, as "process 4321 (swaggerctl)": the
    /// `flock` line of `/proc/locks` for the file's inode, and the process's `comm`; `nil` when neither says.
    static func holder(of descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0,
            let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        for line in locks.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 4321 fd:01:1234567 0 EOF", or with "->" before the kind for a waiter.
            let fields = line.split(separator: " ").filter { $0 != "->" }
            guard fields.count >= 6, fields[1] == "FLOCK",
                fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == UInt64(status.st_ino),
                let pid = Int32(fields[4]), pid != getpid()
            else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .split(separator: "\n").first.map(String.init)
            return "process \(pid)\(name.map { " (\($0))" } ?? "")"
        }
        return nil
    }

    /// Removes the temporary files that ``write(_:to:)`` left for `name` when its process was killed. Call it
    /// only while holding `name`'s lock, shared or exclusive: a writer holds the exclusive lock for as long as
    /// its temporary file exists, so under either lock every one found is stale. Failures are ignored; a
    /// read-only folder simply keeps them.
    func removeStaleTemporaries(of name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        let prefix = ".\(name)."
        for candidate in names where candidate.hasPrefix(prefix) && candidate.hasSuffix(".tmp") {
            let middle = candidate.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
            guard middle.count == 2, middle.allSatisfy({ UInt64($0) != nil }) else { continue }
            unlink(fileURL(candidate).path)
        }
    }

    private func syncFolder() {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
