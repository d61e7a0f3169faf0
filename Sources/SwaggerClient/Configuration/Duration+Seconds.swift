extension Duration {
    /// The duration in seconds, as a `TimeInterval` for Dispatch and for messages.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in seconds for messages: "3 sec", "0.5 sec".
    var secondsText: String {
        "\(timeInterval.formatted(.number.precision(.fractionLength(0...2)))) sec"
    }
}
