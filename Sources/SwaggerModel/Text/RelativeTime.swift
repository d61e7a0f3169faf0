import FoundationEssentials

/// How far a time is from now, in words for people: "in 59 min", "2 h 5 min ago", "now".
package enum RelativeTime {
    /// `date` relative to `now`: "in 3 min", "3 min ago", or "now".
    package static func phrase(_ date: Date, from now: Date) -> String {
        let seconds = Int(date.timeIntervalSince(now).rounded())
        guard seconds != 0 else { return "now" }
        return seconds > 0 ? "in \(span(seconds))" : "\(span(-seconds)) ago"
    }

    /// A length of time, rounded down to the units that matter: "45 s", "3 min", "2 h 5 min", "4 d".
    package static func span(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86_400: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: "\(seconds / 86_400) d"
        }
    }

    /// How long a token that a server still takes works on: "for 14 min more", or "until it expires" where
    /// nobody said when.
    package static func stays(_ until: Date?, now: Date) -> String {
        until.map { "for \(span(max(1, Int($0.timeIntervalSince(now))))) more" } ?? "until it expires"
    }

    /// `2026-11-22 03:24:19 UTC (in 59 min)`: a UTC time stamp for people, and how far it is from `now`.
    package static func stamp(_ date: Date, now: Date) -> String {
        let day = date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
        let time = date.formatted(.iso8601.time(includingFractionalSeconds: false).timeSeparator(.colon))
        return "\(day) \(time) UTC (\(phrase(date, from: now)))"
    }
}
