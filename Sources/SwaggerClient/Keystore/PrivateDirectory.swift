import Foundation

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
struct PrivateDirectory: Sendable {
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    var path: String { url.path }

    func fileURL(_ name: String) -> URL {
        url.appending(path: name, directoryHint: .notDirectory)
    }

    /// Whether the folder exists.
    /// - Throws: ``SwaggerError`` when something other than a folder is in its place.
    func exists() throws(SwaggerError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else {
            throw SwaggerError(.failure, "\(path) is not a folder. Move it aside or set SWAGGERCTL_CONFIG_DIR.")
        }
        return true
    }

    /// Creates the folder and any missing parents with mode 0700, and tightens the folder itself to 0700.
    func create() throws(SwaggerError) {
        if try !exists() {
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SwaggerError(
                    .failure,
                    "Could not create the folder \(path): \(Self.reason(error)). Set SWAGGERCTL_CONFIG_DIR "
                        + "to a folder you can write.")
            }
        }
        guard chmod(path, 0o700) == 0 else {
            throw SwaggerError(.failure, "Could not make \(path) private (mode 0700): \(Self.errnoText()).")
        }
    }

    /// Reads a whole file, or returns `nil` when it does not exist.
    func read(_ name: String) throws(SwaggerError) -> Data? {
        let file = fileURL(name).path
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw SwaggerError(.failure, "Could not read \(file): \(Self.errnoText()).")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw SwaggerError(.failure, "Could not read \(file): \(Self.reason(error)).")
        }
    }

    /// Replaces a file atomically with `data`, mode 0600.
    func write(_ data: Data, to name: String) throws(SwaggerError) {
        let target = fileURL(name).path
        let temporary = fileURL(".\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SwaggerError(.failure, "Could not write in \(path): \(Self.errnoText()).")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw SwaggerError(.failure, "Could not write \(target): \(Self.reason(error)).")
        }
        guard rename(temporary, target) == 0 else {
            let reason = Self.errnoText()
            unlink(temporary)
            throw SwaggerError(.failure, "Could not replace \(target): \(reason).")
        }
        syncFolder()
    }

    /// Runs `body` while holding an advisory lock on the lock file `name`, exclusive or shared.
    ///
    /// The lock is an `flock(2)` on a file that is never replaced, so it serialises processes as well as
    /// threads that open it separately.
    func withLock<Result>(
        _ name: String, exclusive: Bool, _ body: () throws(SwaggerError) -> Result
    ) throws(SwaggerError) -> Result {
        let lockPath = fileURL(name).path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SwaggerError(.failure, "Could not open the lock file \(lockPath): \(Self.errnoText()).")
        }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw SwaggerError(.failure, "Could not lock \(lockPath): \(Self.errnoText()).")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
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

    static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return errnoText(underlying.code.rawValue)
        }
        return (error as NSError).localizedDescription
    }
}
