import FoundationEssentials
import Glibc
import SwaggerClient
import Synchronization

/// Shows a spinner on standard error while the API service waits, and only when standard error is a
/// terminal. It appears after a short delay, so quick answers do not flicker, and erases itself.
final class Spinner: APIServiceDelegate {
    private struct State {
        var label = ""
        var generation = 0
        var waiting = false
        var drawn = false
    }

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    private let state = Mutex(State())

    private init(label: String) {
        state.withLock { $0.label = label }
    }

    /// What the spinner says it is doing.
    var label: String {
        get { state.withLock { $0.label } }
        set { state.withLock { $0.label = newValue } }
    }

    /// A spinner for standard error, or `nil` when standard error is not a terminal.
    static func forStandardError(label: String = "Working") -> Spinner? {
        Terminal.isTerminal(STDERR_FILENO) ? Spinner(label: label) : nil
    }

    func apiService(_ service: APIService, isWaiting: Bool) {
        if isWaiting {
            let generation = state.withLock { state in
                state.generation += 1
                state.waiting = true
                return state.generation
            }
            Task.detached { [self] in
                try? await Task.sleep(for: .milliseconds(150))
                var frame = 0
                while draw(frame: frame, generation: generation) {
                    frame += 1
                    try? await Task.sleep(for: .milliseconds(80))
                }
            }
        } else {
            state.withLock { state in
                if state.drawn { Terminal.standardError.write("\r\u{1B}[K") }
                state.waiting = false
                state.drawn = false
            }
        }
    }

    private func draw(frame: Int, generation: Int) -> Bool {
        state.withLock { state in
            guard state.waiting, state.generation == generation else { return false }
            Terminal.standardError.write(
                "\r\(Self.frames[frame % Self.frames.count]) \(TerminalText.escaped(state.label))")
            state.drawn = true
            return true
        }
    }
}
