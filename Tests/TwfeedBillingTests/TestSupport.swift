import Foundation
import TwfeedBilling

/// A UTC instant written as in the contract (`2026-11-25T10:00:00Z`), so each test reads
/// with the dates it is about.
func utc(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    guard let date = formatter.date(from: text) else { fatalError("bad test date \(text)") }
    return date
}

/// Dollars written as a decimal literal (`usd("0.005")`); exact, through the parser.
func usd(_ text: String) -> MicroUSD {
    do {
        return try MicroUSD(parsing: text)
    } catch {
        fatalError("bad test amount \(text): \(error)")
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
