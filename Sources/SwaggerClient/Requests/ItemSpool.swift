import FoundationEssentials
import SessionStorage
import SwaggerModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--slurp`'s array, written to a scratch file page by page instead of being kept in memory: every page of a
/// long list held at once, then joined and copied, took several times the list's size.
///
/// Nothing is shown until the last page has arrived, so that a failure part of the way leaves no half array
/// on standard output.
package final class ItemSpool {
    private let descriptor: Int32
    private var isEmpty = true

    /// A spool in a scratch file of `folder`, which is made private first if needed.
    package init(in folder: URL) throws(SwaggerError) {
        descriptor = try PrivateDirectory(folder).scratchFile()
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
