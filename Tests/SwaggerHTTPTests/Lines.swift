import Synchronization

/// Text that a closure under test hands out, kept in order: the lines of `--verbose`, the names of expired requests.
final class Lines: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// ``add(_:)``, as a closure to hand out.
    var sink: @Sendable (String) -> Void { { line in self.add(line) } }
}
