import Foundation
import Testing

@testable import SwaggerHTTP

@Suite("The generated client's date transcoder")
struct TimestampTranscoderTests {
    @Test("a date goes out as RFC 3339 in UTC and comes back; text that is no date is refused as data")
    func transcodes() throws {
        let transcoder = TimestampTranscoder()
        let date = Date(timeIntervalSince1970: 1_795_637_589.125)
        let text = try transcoder.encode(date)
        #expect(text == "2026-11-25T20:13:09.125Z")
        #expect(try transcoder.decode(text) == date)
        #expect(try transcoder.decode("2026-11-25T22:13:09+02:00") == Date(timeIntervalSince1970: 1_795_637_589))
        #expect(throws: DecodingError.self) { try transcoder.decode("next Tuesday") }
    }
}
