import Foundation
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import Synchronization

/// A console that keeps what a command printed, on each stream, and answers its questions from a list: the
/// terminal of a command run as a function.
final class RecordingConsole: Console {
    private struct State {
        var output = ""
        var notices: [String] = []
        var answers: [String]
        var labels: [String] = []
        var input: String?
    }

    private let state: Mutex<State>
    let canAsk: Bool

    /// A console that a person sits at when `answers` are given, and answers with them in turn; `input` is what
    /// is piped to standard input.
    init(answers: [String]? = nil, input: String? = nil) {
        state = Mutex(State(answers: answers ?? [], input: input))
        canAsk = answers != nil
    }

    /// Standard output, as written.
    var output: String { state.withLock { $0.output } }
    /// The lines on standard error, prompts and questions among them.
    var notices: [String] { state.withLock { $0.notices } }
    /// What each wait on the server was labelled.
    var labels: [String] { state.withLock { $0.labels } }

    func print(_ text: String) { state.withLock { $0.output += text } }

    func write(_ bytes: Data) { state.withLock { $0.output += String(decoding: bytes, as: UTF8.self) } }

    func notice(_ text: String) { state.withLock { $0.notices.append(text) } }

    var outputIsTerminal: Bool { false }

    var colourEnabled: Bool { false }

    var columns: Int? { nil }

    var errorIsTerminal: Bool { canAsk }

    func line(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        let answer = state.withLock { state in
            state.notices.append(prompt)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw SwaggerError(.cancelled, cancelled) }
        return answer
    }

    func confirm(_ question: String, cancelled: String) throws(SwaggerError) -> Bool {
        !(try line(question, cancelled: cancelled)).lowercased().hasPrefix("n")
    }

    func secret(_ prompt: String, cancelled: String) throws(SwaggerError) -> String {
        try line(prompt, cancelled: cancelled)
    }

    func standardInput(flag: String, secret: String) throws(SwaggerError) -> String {
        let input = state.withLock { state in
            defer { state.input = nil }
            return state.input
        }
        guard let input, !input.isEmpty else {
            throw SwaggerError(.usage, "\(flag) was given, but standard input was empty.")
        }
        return input.hasSuffix("\n") ? String(input.dropLast()) : input
    }

    func working<Result: Sendable>(
        _ label: String, shown: Bool, _ work: ((any ProgressLine)?) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        guard shown else { return try await work(nil) }
        let line = Line(console: self)
        line.label = label
        return try await work(line)
    }

    /// A progress line whose every label the console keeps.
    private final class Line: ProgressLine {
        let console: RecordingConsole

        init(console: RecordingConsole) {
            self.console = console
        }

        var label: String {
            get { console.labels.last ?? "" }
            set { console.state.withLock { $0.labels.append(newValue) } }
        }

        func waiting(_ isWaiting: Bool) {}
    }
}
