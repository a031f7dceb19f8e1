extension URLDetector {
    /// RFC 3492 punycode, as the `punycode` package twitter-text relies on encodes it.
    /// twitter-text rejects a URL whose domain has a label longer than 63 characters once
    /// encoded, so the length of the encoding decides whether a long internationalised
    /// host is a URL (23) or plain text; the conformance cases sit right at that limit.
    enum Punycode {
        private static let base = 36
        private static let tMin = 1
        private static let tMax = 26
        private static let skew = 38
        private static let damp = 700
        private static let initialBias = 72
        private static let initialN = 0x80
        private static let maxInt = 0x7FFF_FFFF

        /// The length of `punycode.toASCII(label)`: parts split at the IDNA full stops
        /// (U+3002, U+FF0E, U+FF61), each non-ASCII part encoded as `xn--…`. `nil` where
        /// the encoder would overflow (it throws there, so twitter-text gets no URL either).
        /// Exact up to well past the 63-character DNS limit; for a part too long to fit
        /// anyway it returns a lower bound instead of running the quadratic encoder.
        static func asciiLength(ofLabel label: ArraySlice<UInt16>) -> Int? {
            var total = 0
            var partStart = label.startIndex
            for index in label.startIndex...label.endIndex
            where index == label.endIndex || isSeparator(label[index]) {
                let part = label[partStart..<index]
                if part.count > 128, part.contains(where: { $0 >= 0x80 }) {
                    // At least "xn--" plus one digit per code point, two units at most each.
                    total += 4 + (part.count + 1) / 2
                } else if part.contains(where: { $0 >= 0x80 }) {
                    guard let encoded = encode(codePoints(of: part)) else { return nil }
                    total += 4 + encoded.utf8.count
                } else {
                    total += part.count
                }
                if index < label.endIndex { total += 1 }
                partStart = index + 1
            }
            return total
        }

        /// The bare punycode of `input` (without the `xn--` prefix), `nil` on overflow.
        static func encode(_ input: [UInt32]) -> String? {
            var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
            let basicLength = output.count
            if basicLength > 0 { output.append(0x2D) }

            var n = initialN
            var delta = 0
            var bias = initialBias
            var handled = basicLength
            while handled < input.count {
                guard let m = input.lazy.map({ Int($0) }).filter({ $0 >= n }).min() else { return nil }
                guard m - n <= (maxInt - delta) / (handled + 1) else { return nil }
                delta += (m - n) * (handled + 1)
                n = m
                for value in input.lazy.map({ Int($0) }) {
                    if value < n {
                        delta += 1
                        guard delta <= maxInt else { return nil }
                    }
                    guard value == n else { continue }
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, points: handled + 1, first: handled == basicLength)
                    delta = 0
                    handled += 1
                }
                delta += 1
                n += 1
            }
            return String(decoding: output, as: UTF8.self)
        }

        private static func isSeparator(_ unit: UInt16) -> Bool {
            unit == 0x2E || unit == 0x3002 || unit == 0xFF0E || unit == 0xFF61
        }

        /// Code points as punycode.js's `ucs2decode` sees them: pairs joined, a lone
        /// surrogate kept as its own value.
        private static func codePoints(of units: ArraySlice<UInt16>) -> [UInt32] {
            var result: [UInt32] = []
            result.reserveCapacity(units.count)
            var index = units.startIndex
            while index < units.endIndex {
                let unit = units[index]
                if UTF16.isLeadSurrogate(unit), index + 1 < units.endIndex, UTF16.isTrailSurrogate(units[index + 1]) {
                    result.append(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(units[index + 1] - 0xDC00))
                    index += 2
                } else {
                    result.append(UInt32(unit))
                    index += 1
                }
            }
            return result
        }

        private static func digit(_ value: Int) -> UInt8 {
            value < 26 ? UInt8(0x61 + value) : UInt8(0x30 + value - 26)
        }

        private static func adapt(delta: Int, points: Int, first: Bool) -> Int {
            var delta = first ? delta / damp : delta >> 1
            delta += delta / points
            var k = 0
            while delta > ((base - tMin) * tMax) >> 1 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + skew)
        }
    }
}
