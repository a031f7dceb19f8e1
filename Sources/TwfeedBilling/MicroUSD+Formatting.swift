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
