import FoundationEssentials
import Glibc
import SwaggerClient
import SwaggerModel
import SwaggerOutput
import Synchronization

/// A spinner on standard error while a request is in flight, and only when standard error is a terminal. It
/// appears after a short delay, so quick answers do not flicker, and erases itself.
///
/// It draws from a child task of the command's work (``run(_:_:)``), which ends with the work; the API service,
/// as its delegate, says when a request is in flight.
final class Spinner: ProgressLine {
    private struct State {
        var label: String
        /// When the request in flight started; `nil` while none is.
        var waitingSince: ContinuousClock.Instant?
        var drawn = false
    }

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How long a request must take before the spinner shows.
    private static let delay: Duration = .milliseconds(150)
    private static let frameTime: Duration = .milliseconds(80)

    private let state: Mutex<State>
    /// One element each time a request starts: the animation sleeps until then, not in a loop.
    private let requests: AsyncStream<Void>
    private let requestStarted: AsyncStream<Void>.Continuation

    private init(label: String) {
        state = Mutex(State(label: label))
        (requests, requestStarted) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// What the spinner says it is doing.
    var label: String {
        get { state.withLock { $0.label } }
        set { state.withLock { $0.label = newValue } }
    }

    /// Runs `work` with a spinner that says `label`, or with none when standard error is not a terminal or
    /// `enabled` is off (`--quiet`).
    static func run<Result: Sendable>(
        _ label: String, enabled: Bool = true, _ work: (Spinner?) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        guard enabled, Terminal.isTerminal(STDERR_FILENO) else { return try await work(nil) }
        let spinner = Spinner(label: label)
        // Ctrl-C while a frame is on the line would leave it there, with the shell's prompt after it.
        let previous = interruptingSignals.map { signal($0, eraseAndReraise) }
        defer { for (number, handler) in zip(interruptingSignals, previous) { signal(number, handler) } }
        let outcome = await withTaskGroup(of: Void.self, returning: Swift.Result<Result, SwaggerError>.self) {
            group in
            group.addTask { await spinner.animate() }
            defer { group.cancelAll() }
            do throws(SwaggerError) {
                return .success(try await work(spinner))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    func waiting(_ isWaiting: Bool) {
        state.withLock { state in
            state.waitingSince = isWaiting ? .now : nil
            if !isWaiting { Self.erase(&state) }
        }
        if isWaiting { requestStarted.yield() }
    }

    /// Draws a frame while a request has been in flight for longer than the delay, until cancelled; between
    /// requests, such as at a prompt, it waits without waking.
    private func animate() async {
        var frame = 0
        for await _ in requests {
            while !Task.isCancelled, state.withLock({ $0.waitingSince != nil }) {
                try? await CommandProcess.sleep(for: Self.frameTime)
                state.withLock { state in
                    guard let since = state.waitingSince, ContinuousClock.now - since >= Self.delay else { return }
                    Terminal.standardError.write(
                        "\r\(Self.frames[frame % Self.frames.count]) \(TerminalText.escaped(state.label))")
                    state.drawn = true
                    frameOnScreen.store(true, ordering: .releasing)
                    frame += 1
                }
            }
        }
        state.withLock { Self.erase(&$0) }
    }

    private static func erase(_ state: inout State) {
        if state.drawn { Terminal.standardError.write("\r\u{1B}[K") }
        state.drawn = false
        frameOnScreen.store(false, ordering: .releasing)
    }
}

private let interruptingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// Whether a frame is on standard error's line, for a signal handler, which may not take the spinner's lock.
private let frameOnScreen = Atomic(false)

/// What erases a frame, and the line that says an interrupted command was cancelled.
private let erasure = Array("\r\u{1B}[K".utf8)
private let cancelledLine = Array("swaggerctl: Cancelled.\n".utf8)

/// Erases the frame, if one is drawn, says the command was cancelled, and re-raises the signal with its default
/// action, which a shell reports as 128 + its number (130 for Ctrl-C). Async-signal-safe: a load, writes, and
/// nothing allocated.
private func eraseAndReraise(_ number: Int32) {
    if frameOnScreen.load(ordering: .acquiring) {
        _ = erasure.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    _ = cancelledLine.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    signal(number, SIG_DFL)
    raise(number)
}
