import FoundationEssentials

/// RFC 8288's `Link` header: `<uri>; rel="next"; title="…", <uri>; rel=last`.
package enum LinkHeader {
    /// The target of the first link whose `rel` includes `relation`, compared without case (§3.3).
    package static func target(of relation: String, in header: String) -> String? {
        var index = header.startIndex
        while let open = header[index...].firstIndex(of: "<") {
            guard let close = header[open...].firstIndex(of: ">") else { return nil }
            let target = String(header[header.index(after: open)..<close])
            // The parameters run to the next comma that is outside a quoted string.
            var end = header.index(after: close)
            var quoted = false
            while end < header.endIndex, quoted || header[end] != "," {
                if header[end] == "\"" { quoted.toggle() }
                end = header.index(after: end)
            }
            for parameter in header[header.index(after: close)..<end].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "rel" else {
                    continue
                }
                let value = pair[1].trimmingWhitespace().trimming(while: { $0 == "\"" })
                if value.lowercased().split(separator: " ").contains(Substring(relation.lowercased())) {
                    return target
                }
            }
            index = end
        }
        return nil
    }
}
