extension Duration {
    /// The duration in seconds, as a `TimeInterval` for Dispatch and for messages.
    package var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in seconds for messages, as every duration is written: "3 s", "0.5 s".
    package var secondsText: String {
        // By hand: a number format style would need FoundationInternationalization, and ICU with it.
        let hundredths = Int((timeInterval * 100).rounded())
        let (whole, fraction) = hundredths.quotientAndRemainder(dividingBy: 100)
        let decimals =
            switch fraction {
            case 0: ""
            case let tenths where tenths % 10 == 0: ".\(tenths / 10)"
            case 1..<10: ".0\(fraction)"
            default: ".\(fraction)"
            }
        return "\(whole)\(decimals) s"
    }

    /// The duration that the environment variable `name` gives in seconds (`text`): more than none and at most an
    /// hour; `nil` when it is unset. Every timeout the environment sets is read by this one rule.
    /// - Throws: `SwaggerError` with code `usage`, naming the variable, for any other text: `0`, `-1`, `nan`, `inf`,
    ///   `1e300`, `abc`.
    package static func seconds(of name: String, _ text: String?, example: String) throws(SwaggerError) -> Duration? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
            throw SwaggerError(.usage, "\(name) must be a number of seconds, such as \(example); got \"\(text)\".")
        }
        return .seconds(seconds)
    }
}
