import FoundationEssentials
import SessionStorage
import SwaggerModel
import SwaggerOutput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--slurp`'s array, written to a scratch file page by page instead of being kept in memory: every page of a
/// long list held at once, then joined and copied, took several times the list's size.
///
/// The file is 0600 in `$TMPDIR` (else `/tmp`), and its name is removed as soon as it is made: no other process
/// can open it, and nothing is left behind however the process ends. Nothing is shown until the last page has arrived, so that a failure
/// part of the way leaves no half array on standard output.
package final class ScratchSpool: ItemSpool {
    private let descriptor: Int32
    private var isEmpty = true

    package init(environment: [String: String]) throws(SwaggerError) {
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        // mkstemp makes it 0600 under a name no other process can guess, which goes at once.
        var template = Array((folder + "/swaggerctl-slurp.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { $0.baseAddress.map(mkstemp) ?? -1 }
        guard descriptor >= 0 else {
            throw SwaggerError(
                .failure,
                "Could not make a temporary file in \(folder) for --slurp: \(String(cString: strerror(errno))). "
                    + "Set TMPDIR to a folder you can write.")
        }
        template.withUnsafeBufferPointer { _ = $0.baseAddress.map(unlink) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Adds the items of one page, each the JSON text of one element.
    package func append(_ items: [String]) throws(SwaggerError) {
        guard !items.isEmpty else { return }
        let text = (isEmpty ? "" : ",") + items.joined(separator: ",")
        isEmpty = false
        do throws(DescriptorIO.Failure) {
            try DescriptorIO.writeAll(Data(text.utf8), to: descriptor)
        } catch {
            throw SwaggerError(.failure, "Could not keep the pages for --slurp: \(error).")
        }
    }

    /// The whole array, `[` to `]`, handed to `body` a piece at a time.
    package func array(_ body: (Data) -> Void) throws(SwaggerError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw SwaggerError(
                .failure, "Could not read back the pages for --slurp: \(String(cString: strerror(errno))).")
        }
        body(Data("[".utf8))
        while true {
            let chunk: Data
            do throws(DescriptorIO.Failure) {
                chunk = try DescriptorIO.readAll(descriptor, limit: 1 << 20)
            } catch {
                throw SwaggerError(.failure, "Could not read back the pages for --slurp: \(error).")
            }
            guard !chunk.isEmpty else { break }
            body(chunk)
        }
        body(Data("]".utf8))
    }
}
