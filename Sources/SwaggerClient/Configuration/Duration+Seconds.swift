extension Duration {
    /// The duration in seconds for messages: "3 sec", "0.5 sec".
    var secondsText: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return "\(value.formatted(.number.precision(.fractionLength(0...2)))) sec"
    }
}
