import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole reads and writes on a file descriptor, through short counts and interrupted calls: what
/// `FileHandle` does, without the whole of Foundation that it belongs to.
public enum DescriptorIO {
    /// A failed call's `errno`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The `errno` value.
        public var code: Int32
        /// `strerror`'s text for it.
        public var description: String { String(cString: strerror(code)) }
    }

    /// Reads until end of file, or until `limit` bytes.
    /// - Parameters:
    ///   - descriptor: An open descriptor.
    ///   - limit: The most bytes to read.
    /// - Returns: The bytes.
    /// - Throws: ``Failure`` when a read fails.
    public static func readAll(_ descriptor: Int32, limit: Int = .max) throws(Failure) -> Data {
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

    /// Writes all of `data`.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - descriptor: An open descriptor.
    /// - Throws: ``Failure`` when a write fails.
    public static func writeAll(_ data: Data, to descriptor: Int32) throws(Failure) {
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

    /// Reads the whole file at `path`, or standard input for `-`.
    /// - Parameter path: The file.
    /// - Returns: The bytes.
    /// - Throws: ``Failure`` when it cannot be opened or read.
    public static func readFile(_ path: String) throws(Failure) -> Data {
        guard path != "-" else { return try readAll(STDIN_FILENO) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        return try readAll(descriptor)
    }
}
