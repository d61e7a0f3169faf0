import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

@Suite("Timestamp: the session files' dates, against Foundation's ISO 8601 style", .timeLimit(.minutes(5)))
struct TimestampTests {
    static let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A fixed sequence of dates from 1900 to 2400, each with a part of a millisecond that is dropped; then 1970,
    /// half a millisecond before it, and the leap day of 2000.
    static let dates: [Date] = {
        var generator = SplitMix64(seed: 0x5eed)
        let start = -2_208_988_800.0  // 1900-01-01
        let span = 15_778_800_000.0  // five hundred years
        return (0..<5000).map { _ in
            Date(timeIntervalSince1970: start + Double(generator.next() % 1_000_000_000) / 1e9 * span)
        } + [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005),
            Date(timeIntervalSince1970: 951_782_400),
        ]
    }()

    @Test("a date is written as Foundation writes it, and read back to the millisecond as Foundation reads it")
    func sameAsFoundation() throws {
        for date in Self.dates {
            let text = Timestamp.string(from: date)
            #expect(text == date.formatted(Self.foundation), "\(date.timeIntervalSince1970)")
            let read = try #require(Timestamp.date(from: text))
            let expected = try Date(text, strategy: Self.foundation)
            #expect(abs(read.timeIntervalSince1970 - expected.timeIntervalSince1970) < 1e-6, "\(text)")
            // Read and written again, as a session is at each save, it comes out as Foundation's would.
            #expect(Timestamp.string(from: read) == expected.formatted(Self.foundation), "\(text)")
        }
    }

    @Test(
        "text without a fraction, with an offset, or out of range is read as Foundation reads it",
        arguments: [
            "2026-11-25T19:08:36Z", "2026-11-25T19:08:36.5Z", "2026-11-25T21:08:36.123+02:00", "2024-02-29T00:00:00Z",
            "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-25T24:00:00Z", "2026-11-25T19:08:36.Z",
            "2026-11-25 19:08:36Z", "yesterday", "", "2026-11-25T19:08:3xZ",
        ])
    func otherText(text: String) {
        let expected =
            (try? Date(text, strategy: Self.foundation)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
        #expect(Timestamp.date(from: text) == expected)
    }
}
