/// Money as whole micro-dollars (1 USD = 1,000,000): every charge and balance is an
/// integer, so a bill of millions of half-cent reads adds up exactly; dollars appear only
/// at the edges (settings in, reports out), rounded to 6 decimals as twfeed reports them.
enum MicroDollars {
    static let perUSD = 1_000_000

    /// The amount in micro-dollars, rounded to the nearest; nil when not finite or beyond
    /// a trillion dollars (so the conversion cannot trap).
    static func from(usd: Double) -> Int? {
        guard usd.isFinite, abs(usd) <= 1e12 else { return nil }
        return Int((usd * Double(perUSD)).rounded())
    }

    /// Dollars: the nearest Double to the 6-decimal amount.
    static func usd(_ micros: Int) -> Double {
        Double(micros) / Double(perUSD)
    }

    /// The amount as a JSON number with at most 6 decimals, written from the integer
    /// (`0.015`, `12.5`, `-0.005`, `0`): no binary fraction ever shows in a report.
    static func json(_ micros: Int) -> EmulatorJSON {
        .number(literal(micros))
    }

    static func literal(_ micros: Int) -> String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let whole = magnitude / UInt(perUSD)
        var fraction = String(magnitude % UInt(perUSD))
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
