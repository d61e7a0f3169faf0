import FoundationEssentials
import SwaggerModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` on one account's lock file in the configuration folder, held across processes
/// while that account's tokens are refreshed or removed.
///
/// A rotating refresh token may be spent only once: two processes that refreshed with the same token would
/// have the server revoke the session as stolen. Under this lock, a process reads the stored tokens again
/// and uses them if another process has already refreshed.
///
/// The lock is released when the value is consumed or dropped. Logout removes the file while holding the
/// lock; a process that was waiting on the removed file finds, once it holds the lock, that the path now
/// names another file or none, and locks afresh. So no two processes ever hold the lock of one account.
package struct RefreshLock: ~Copyable {
    private let descriptor: Int32
    private let path: String

    /// Waits for and takes the lock of `account`.
    package init(for account: Account, in directory: PrivateDirectory) throws(SwaggerError) {
        try directory.create()
        let path = directory.fileURL(Self.fileName(for: account)).path
        while true {
            let descriptor = try PrivateDirectory.openLockFile(path)
            try PrivateDirectory.lock(descriptor, LOCK_EX, at: path)
            if Self.isStillNamed(path, by: descriptor) {
                self.descriptor = descriptor
                self.path = path
                return
            }
            close(descriptor)
        }
    }

    deinit {
        close(descriptor)
    }

    /// What the last refresh that failed under this lock left for those who waited; `nil` when it left nothing, or
    /// nothing that reads as a note.
    package func note() -> RefreshNote? {
        var bytes = [UInt8](repeating: 0, count: RefreshNote.sizeLimit)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return try? JSONDecoder.swaggerctl.decode(RefreshNote.self, from: Data(bytes[..<count]))
    }

    /// Leaves `note` for the processes waiting for the lock, or, with `nil`, clears what a failure left. Nothing
    /// depends on it but their choice to fail at once, so a note that could not be written costs only that.
    package func leave(_ note: RefreshNote?) {
        let data = note.flatMap { try? JSONEncoder.swaggerctl.encode($0) } ?? Data()
        guard data.count <= RefreshNote.sizeLimit else { return }
        _ = ftruncate(descriptor, 0)
        _ = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Releases the lock and removes the lock file: the account is gone, and so is its lock.
    package consuming func releaseRemovingFile() {
        // Unlinked while still held, so that no process can lock this file after it has gone.
        unlink(path)
    }

    /// The lock file's name for `account`: a stable hash, because an e-mail and a URL do not make a safe
    /// file name. Two accounts that shared a hash would only take turns.
    static func fileName(for account: Account) -> String {
        // FNV-1a, 64 bits: stable across processes and releases, unlike Swift's seeded `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(account.server.string.utf8) + [0] + Array(account.name.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return ".refresh-\(String(repeating: "0", count: 16 - hex.count) + hex).lock"
    }

    /// Whether `path` still names the file open at `descriptor`.
    private static func isStillNamed(_ path: String, by descriptor: Int32) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}
