/// An amount of US dollars in whole millionths (1 USD = 1,000,000).
///
/// The API's prices are decimal fractions of a cent ($0.005, $0.001) and a day's bill is
/// the sum of thousands of them; in `Double` those sums drift (0.005 has no exact binary
/// form), and a budget check at the last cent must not depend on rounding noise. In
/// integer millionths every published price, sum and comparison is exact, and six
/// decimals is also what the contract's JSON shows.
///
/// Arithmetic saturates at `Int64`'s ends instead of trapping: a long-running daemon must
/// not crash on a hostile count, and ±9.2 trillion dollars is far past any budget.
/// The value may be negative (a budget minus what was spent); only parsing refuses that.
package struct MicroUSD: Hashable, Comparable, Sendable {
    /// Millionths of a dollar.
    package let micros: Int64

    /// Millionths in one dollar.
    package static let microsPerUSD: Int64 = 1_000_000

    package static let zero = MicroUSD(micros: 0)

    package init(micros: Int64) {
        self.micros = micros
    }

    /// The amount in dollars as a JSON number: `micros / 1e6` is the `Double` nearest to
    /// the six-decimal value, so `JSONSerialization` writes `0.295`, not `0.29500000000000004`.
    package var usd: Double {
        Double(micros) / Double(Self.microsPerUSD)
    }

    package var isNegative: Bool { micros < 0 }

    /// The amount, or zero when it is negative: what is "left" of a budget already passed.
    package var clampedToZero: MicroUSD { micros < 0 ? .zero : self }

    package static func < (lhs: MicroUSD, rhs: MicroUSD) -> Bool {
        lhs.micros < rhs.micros
    }

    package static func + (lhs: MicroUSD, rhs: MicroUSD) -> MicroUSD {
        let (sum, overflow) = lhs.micros.addingReportingOverflow(rhs.micros)
        guard overflow else { return MicroUSD(micros: sum) }
        return MicroUSD(micros: rhs.micros > 0 ? .max : .min)
    }

    package static func - (lhs: MicroUSD, rhs: MicroUSD) -> MicroUSD {
        let (difference, overflow) = lhs.micros.subtractingReportingOverflow(rhs.micros)
        guard overflow else { return MicroUSD(micros: difference) }
        return MicroUSD(micros: rhs.micros < 0 ? .max : .min)
    }

    /// The price of `count` resources at this unit price.
    package static func * (price: MicroUSD, count: Int) -> MicroUSD {
        let (product, overflow) = price.micros.multipliedReportingOverflow(by: Int64(count))
        guard overflow else { return MicroUSD(micros: product) }
        return MicroUSD(micros: (price.micros < 0) == (count < 0) ? .max : .min)
    }

    package static func * (count: Int, price: MicroUSD) -> MicroUSD {
        price * count
    }

    package static func += (lhs: inout MicroUSD, rhs: MicroUSD) {
        lhs = lhs + rhs
    }

    package static func -= (lhs: inout MicroUSD, rhs: MicroUSD) {
        lhs = lhs - rhs
    }
}
