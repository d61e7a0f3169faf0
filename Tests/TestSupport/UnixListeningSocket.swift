import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix-domain socket bound to a path, as a session bus's socket is.
package final class UnixListeningSocket {
    private let descriptor: Int32

    package init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, 1) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    package func close() {
        Glibc.close(descriptor)
    }
}
