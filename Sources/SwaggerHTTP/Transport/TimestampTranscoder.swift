import FoundationEssentials
import OpenAPIRuntime
import SwaggerModel

/// The generated client's dates, written and read as ``Timestamp`` does. The runtime's default transcoder makes
/// Foundation's ISO 8601 style as it is made, with every client: a Gregorian calendar and the system's time zone,
/// 1.8 M instructions and a read of `/etc/localtime` on each command's first request, for an API with no dates.
struct TimestampTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        Timestamp.string(from: date)
    }

    func decode(_ text: String) throws -> Date {
        guard let date = Timestamp.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an RFC 3339 date"))
        }
        return date
    }
}
