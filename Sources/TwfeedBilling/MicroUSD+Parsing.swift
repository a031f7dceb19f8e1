import Foundation

/// Reading amounts that people write: prices and the budget in the config file, and
/// `twfeed fill --max-usd X`.
///
/// A typo in a budget must stop the daemon with a message, not become a different budget,
/// so the parsers refuse rather than guess: a negative amount, NaN or infinity, more than
/// six decimals (the API bills in millionths, and silently rounding `0.0000004` to zero
/// would make a price free), and amounts over a billion dollars (so every sum of prices
/// and counts stays far from `Int64`'s end).
extension MicroUSD {
    /// Why an amount was refused; `description` completes a config message such as
    /// "api.prices.postRead: must not be negative".
    package enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case negative
        case notFinite
        case tooPrecise
        case tooLarge
        case notANumber
        case wrongType

        package var description: String {
            switch self {
            case .negative: "must not be negative"
            case .notFinite: "must be a finite number"
            case .tooPrecise: "has more than 6 decimals (the API bills in millionths of a dollar)"
            case .tooLarge: "is more than 1000000000 dollars"
            case .notANumber: "is not a number"
            case .wrongType: "must be a number of dollars"
            }
        }
    }

    /// The largest amount the parsers accept: a billion dollars.
    package static let parseLimit = MicroUSD(micros: 1_000_000_000 * microsPerUSD)

    /// Reads a decimal literal exactly, as JSON writes numbers (`0.005`, `12`, `2e-3`,
    /// `1.5E+2`); surrounding ASCII spaces are ignored. TwfeedKit's `JSONValue` keeps a
    /// number's literal text, and reading that text (not a `Double` made from it) keeps
    /// `0.005` exactly 5,000 micro-dollars.
    package init(parsing text: String) throws(ParseError) {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        guard let literal = DecimalLiteral(bytes) else {
            let lowered = String(decoding: bytes, as: UTF8.self).lowercased()
            throw ["nan", "inf", "-inf", "+inf", "infinity", "-infinity"].contains(lowered) ? .notFinite : .notANumber
        }
        self = try literal.micros()
    }

    /// Reads a `Double`, tolerating the binary noise of its representation
    /// (`0.1 + 0.2` is $0.3) but not a seventh decimal (`0.0000004` is refused).
    package init(parsing value: Double) throws(ParseError) {
        guard value.isFinite else { throw .notFinite }
        guard value >= 0 else { throw .negative }
        guard value <= Self.parseLimit.usd else { throw .tooLarge }
        let scaled = value * Double(Self.microsPerUSD)
        let rounded = scaled.rounded()
        // Below a micro-dollar's millionth, or a few units in the last place of a large
        // amount, the difference is the representation's, not the writer's.
        let noise = Swift.max(1e-6, scaled.ulp * 4)
        guard abs(scaled - rounded) <= noise else { throw .tooPrecise }
        self.init(micros: Int64(rounded))
    }

    /// Reads a whole number of dollars.
    package init(parsing dollars: Int) throws(ParseError) {
        guard dollars >= 0 else { throw .negative }
        guard Int64(dollars) <= Self.parseLimit.micros / Self.microsPerUSD else { throw .tooLarge }
        self.init(micros: Int64(dollars) * Self.microsPerUSD)
    }

    /// Reads what `JSONSerialization` gives for a number (an `NSNumber`), or an `Int`,
    /// `Double` or `String`. A JSON `true` is refused, though Foundation would read it as 1.
    package init(parsingJSON value: Any) throws(ParseError) {
        // Native types first: on Linux a Swift `Bool` bridges to an NSNumber of 1, and an
        // NSNumber holding 1.0 answers `is Bool`, so neither cast can tell them apart.
        if type(of: value) == Bool.self { throw .wrongType }
        if let text = value as? String {
            try self.init(parsing: text)
        } else if type(of: value) == Int.self, let whole = value as? Int {
            try self.init(parsing: whole)
        } else if type(of: value) == Double.self, let double = value as? Double {
            try self.init(parsing: double)
        } else if let number = value as? NSNumber {
            // JSONSerialization's booleans are instances of their own NSNumber subclass.
            guard type(of: number) != type(of: NSNumber(value: true)) else { throw .wrongType }
            let objCType = String(cString: number.objCType)
            if objCType != "d", objCType != "f", let whole = Int(exactly: number) {
                try self.init(parsing: whole)  // exact, where a Double could round past 2^53
            } else {
                try self.init(parsing: number.doubleValue)
            }
        } else {
            throw .wrongType
        }
    }
}

/// A decimal number's digits and exponent as written, so it can be scaled by a million
/// without passing through binary floating point.
private struct DecimalLiteral {
    var negative: Bool
    /// Every digit, integer part then fraction, leading zeros included.
    var digits: [UInt8]
    /// How many of `digits` come before the decimal point, after applying the exponent.
    var pointPosition: Int

    /// Grammar: `-? digits ( . digits )? ( [eE] [+-]? digits )?`.
    init?(_ bytes: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func digitRun() -> [UInt8] {
            var run: [UInt8] = []
            while index < bytes.endIndex, isDigit(bytes[index]) {
                run.append(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return run
        }

        negative = index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerPart = digitRun()
        guard !integerPart.isEmpty else { return nil }
        var fractionPart: [UInt8] = []
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionPart = digitRun()
            guard !fractionPart.isEmpty else { return nil }
        }
        var exponent = 0
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentDigits = digitRun()
            guard !exponentDigits.isEmpty else { return nil }
            for digit in exponentDigits {
                // Past a few thousand the answer (too large, too precise, zero) is settled.
                exponent = Swift.min(exponent * 10 + Int(digit), 100_000)
            }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.endIndex else { return nil }
        digits = integerPart + fractionPart
        pointPosition = integerPart.count + exponent
    }

    func micros() throws(MicroUSD.ParseError) -> MicroUSD {
        let isZero = digits.allSatisfy { $0 == 0 }
        if isZero { return .zero }  // "-0" is zero, not a negative amount
        if negative { throw .negative }
        // Digits before this index are whole micro-dollars; any non-zero digit after it
        // is a fraction of a micro-dollar.
        let microPoint = pointPosition + 6
        if microPoint < digits.count, digits[Swift.max(microPoint, 0)...].contains(where: { $0 != 0 }) {
            throw .tooPrecise
        }
        let limit = MicroUSD.parseLimit.micros
        var value: Int64 = 0
        for position in 0..<Swift.max(microPoint, 0) {
            let digit = position < digits.count ? Int64(digits[position]) : 0
            value = value * 10 + digit
            if value > limit { throw .tooLarge }
        }
        return MicroUSD(micros: value)
    }
}
