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
}
