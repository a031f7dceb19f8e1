/// How amounts read for people (`twfeed usage`, the reader's compose page, log details).
///
/// The rule never rounds, so a day's lines always add up to the total shown under them:
/// the exact amount, trailing zeros trimmed, but at least 2 decimals from one dollar up
/// (`$10.99`, `$1.00`, `$12.345`) and at least 3 below it (`$0.295`, `$0.005`, `$0.200`,
/// `$0.000`), so that the published rates read as written and a few reads don't show as
/// `$0.00`. An amount needing all six decimals shows them (`$0.000001`). No thousands
/// separator: the same text goes into one-line logs.
extension MicroUSD: CustomStringConvertible {
    package var description: String { formatted }

    /// `$0.295`, `$10.99`, `-$0.005`: see the type's comment for the rule.
    package var formatted: String {
        let (whole, fraction) = Self.split(micros)
        let minimumDecimals = whole >= 1 ? 2 : 3
        var decimals = Self.sixDigits(fraction)
        while decimals.count > minimumDecimals, decimals.last == "0" { decimals.removeLast() }
        return (micros < 0 ? "-$" : "$") + String(whole) + "." + decimals
    }

    /// The decimals the exact amount needs (0 to 6): `$0.000015` needs 6, `$0.200` 1.
    package var significantDecimals: Int {
        var decimals = Self.sixDigits(Self.split(micros).fraction)
        while decimals.last == "0" { decimals.removeLast() }
        return decimals.count
    }

    /// Exactly `decimals` decimals (2 to 6), or more when the amount needs them (it never
    /// rounds): a table's amounts all formatted with the most any of them needs line up
    /// and read alike (`$0.005000`, `$0.000015`).
    package func formatted(decimals: Int) -> String {
        let (whole, fraction) = Self.split(micros)
        var digits = Self.sixDigits(fraction)
        let count = min(6, max(2, decimals, significantDecimals))
        digits.removeLast(6 - count)
        return (micros < 0 ? "-$" : "$") + String(whole) + "." + digits
    }

    /// Exactly `decimals` decimals (2 to 6), rounded by `rule` (`.down`, `.up`, else to
    /// nearest) when the amount has more: for an estimate (a projection, an allowance)
    /// shown beside exact amounts, which it need not add up with.
    package func formatted(decimals: Int, rounding rule: FloatingPointRoundingRule) -> String {
        let count = min(6, max(2, decimals))
        var unit: Int64 = 1
        for _ in count..<6 { unit *= 10 }
        var quotient = micros / unit
        let remainder = micros % unit  // the sign of `micros`
        switch rule {
        case .down: if remainder < 0 { quotient -= 1 }
        case .up: if remainder > 0 { quotient += 1 }
        default: if remainder.magnitude * 2 >= unit.magnitude { quotient += micros < 0 ? -1 : 1 }
        }
        return MicroUSD(micros: quotient * unit).formatted(decimals: count)
    }

    /// The exact amount as a plain decimal number with no trailing zeros (`0.295`, `12`,
    /// `0.000001`): for logfmt values and anything a program reads back, where a `Double`'s
    /// own spelling could say `1e-06`.
    package var decimalString: String {
        let (whole, fraction) = Self.split(micros)
        var decimals = Self.sixDigits(fraction)
        while decimals.last == "0" { decimals.removeLast() }
        let sign = micros < 0 ? "-" : ""
        return decimals.isEmpty ? sign + String(whole) : sign + String(whole) + "." + decimals
    }

    /// Whole dollars and the millionths left over, of the magnitude (`Int64.min` included).
    private static func split(_ micros: Int64) -> (whole: UInt64, fraction: UInt64) {
        let magnitude = micros.magnitude
        let perUSD = UInt64(microsPerUSD)
        return (magnitude / perUSD, magnitude % perUSD)
    }

    private static func sixDigits(_ fraction: UInt64) -> String {
        let digits = String(fraction)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
