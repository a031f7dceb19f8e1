import Mustache

/// How every `{{name}}` of the templates is escaped: the five characters
/// swift-mustache's HTML type replaces (`<`, `>`, `&`, `"`, `'`), replaced the same way,
/// but found in the UTF-8 bytes rather than by walking the text's Characters through a
/// dictionary, and a value with none of them is returned as it is. That walk was a
/// sixth of the time of a page of 50 tweets. Working on bytes also escapes a `<` that
/// a combining mark follows (one Character, which the library's table missed).
///
/// Every template names it first (`{{% CONTENT_TYPE: twfeed-html}}`): swift-mustache
/// starts each template, partials too, with its own HTML type.
struct PageEscaping: MustacheContentType {
    static let name = "twfeed-html"
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscape) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            out.append(contentsOf: bytes[..<first])
            for byte in bytes[first...] {
                switch byte {
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }
}
