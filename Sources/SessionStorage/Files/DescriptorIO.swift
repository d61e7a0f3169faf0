import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole reads and writes on a file descriptor, through short counts and interrupted calls: what
/// `FileHandle` does, without the whole of Foundation that it belongs to.
package enum DescriptorIO {
    /// A failed call's `errno`.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The `errno` value.
        package var code: Int32
        /// `strerror`'s text for it.
        package var description: String { String(cString: strerror(code)) }

        package init(code: Int32) {
            self.code = code
        }
    }

    /// Reads until end of file, or until `limit` bytes.
    package static func readAll(_ descriptor: Int32, limit: Int = .max) throws(Failure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < limit {
            let count = read(descriptor, &buffer, min(buffer.count, limit - data.count))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(code: errno) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }

    package static func writeAll(_ data: Data, to descriptor: Int32) throws(Failure) {
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes in
                write(descriptor, bytes.baseAddress.map { $0 + written }, data.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(code: count < 0 ? errno : EIO) }
            written += count
        }
    }

    /// Reads the file at `path`, or standard input for `-`, to its end or to `limit` bytes: `/dev/zero` and an
    /// endless pipe have no end.
    package static func readFile(_ path: String, limit: Int) throws(Failure) -> Data {
        try readFileAndPermissions(path, limit: limit).data
    }

    /// Reads the file at `path` as ``readFile(_:limit:)`` does, with the permission bits (`st_mode & 0o7777`) of
    /// the file read, not of whatever the path named a moment before; `nil` for standard input.
    package static func readFileAndPermissions(_ path: String, limit: Int) throws(Failure) -> (
        data: Data, permissions: UInt32?
    ) {
        guard path != "-" else { return (try readAll(STDIN_FILENO, limit: limit), nil) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(code: errno) }
        return (try readAll(descriptor, limit: limit), UInt32(status.st_mode & 0o7777))
    }
}
