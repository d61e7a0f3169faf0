import FoundationEssentials

/// The session files' dates: RFC 3339 in UTC, to the millisecond, as `2026-11-25T19:08:36.123Z`.
///
/// `Date.ISO8601FormatStyle` writes and reads the same text, but its first use in a process builds a Gregorian
/// calendar and reads the system's time zone from `/etc/localtime`: 1.9 M instructions of every command that
/// opens a session file, for dates that are always UTC. This does the arithmetic alone (the days from the civil
/// date, as in Howard Hinnant's `days_from_civil`), and leaves what it does not write itself, such as an offset
/// other than `Z` or a year past 9999, to Foundation.
package enum Timestamp {
    /// The seconds from 1970 to 2001, where `Date` counts from.
    private static let referenceSeconds: Int64 = 978_307_200

    /// `date` as the files keep it; the same text as `ISO8601FormatStyle(includingFractionalSeconds: true)`.
    package static func string(from date: Date) -> String {
        // Foundation's own arithmetic: whole seconds since 2001, and the fraction's nanoseconds cut to milliseconds.
        let interval = date.timeIntervalSinceReferenceDate
        let whole = interval.rounded(.down)
        guard let seconds = Int64(exactly: whole) else { return foundationString(from: date) }
        let millisecond = Int64((interval - whole) * 1e9) / 1_000_000
        let unixSeconds = seconds + referenceSeconds
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds + 1) / 86_400 - 1
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return foundationString(from: date) }
        let time = unixSeconds - days * 86_400
        let (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(hour, 2)):\(digits(minute, 2))"
            + ":\(digits(second, 2)).\(digits(millisecond, 3))Z"
    }

    /// The date in `text`: RFC 3339 in UTC with or without a fraction of a second, or anything else that
    /// Foundation's ISO 8601 parser reads.
    package static func date(from text: String) -> Date? {
        utcDate(from: Array(text.utf8)) ?? foundationDate(from: text)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, with every field in range; `nil` for any other text.
    private static func utcDate(from bytes: [UInt8]) -> Date? {
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes.last == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return nil }
        // A fraction is a point, then digits up to the Z; Foundation keeps nine of them, as nanoseconds.
        var nanoseconds: Int64 = 0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21 else { return nil }
            var scale: Int64 = 100_000_000
            for byte in bytes[20..<(bytes.count - 1)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                nanoseconds += Int64(byte - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        let days = self.days(fromYear: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - referenceSeconds
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// The year, month and day of the day `days` after 1970-01-01, in the proleptic Gregorian calendar.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days from 1970-01-01 to `year`-`month`-`day`.
    private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func foundationString(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func foundationDate(from text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: .iso8601))
    }
}
