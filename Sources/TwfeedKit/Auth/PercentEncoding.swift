/// RFC 3986 percent-encoding as OAuth 1.0a requires: every byte of the UTF-8 form but
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` with uppercase hex. Foundation's
/// `addingPercentEncoding` leaves other characters alone, so it is not used.
package enum PercentEncoding {
    package static func encode(_ string: String) -> String {
        var result = [UInt8]()
        result.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                result.append(byte)
            } else {
                result.append(UInt8(ascii: "%"))
                result.append(hexDigits[Int(byte >> 4)])
                result.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Decodes `%XX` sequences; with `plusIsSpace`, as form bodies are, `+` means a space.
    package static func decode(_ string: String, plusIsSpace: Bool = false) -> String {
        var result = [UInt8]()
        var bytes = Array(string.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2,
                let high = hexValue(bytes[bytes.startIndex]), let low = hexValue(bytes[bytes.startIndex + 1])
            {
                result.append(high << 4 | low)
                bytes = bytes.dropFirst(2)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                result.append(UInt8(ascii: " "))
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Builds `a=1&b=2` with every name and value encoded.
    package static func form(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// Splits `a=1&b=2` (a query or a form body) into decoded pairs.
    package static func parseForm(_ string: String) -> [(String, String)] {
        string.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(parts[0]), plusIsSpace: true)
            let value = parts.count > 1 ? decode(String(parts[1]), plusIsSpace: true) : ""
            return (name, value)
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
