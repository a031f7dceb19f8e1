import Foundation

/// A `POST /_emulator/billing` body, checked whole before anything changes: a 400 leaves
/// every setting as it was. Absent keys are left alone; `null` clears a limit.
struct BillingSettingsUpdate {
    /// Why a body was refused.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notAnObject
        case unknownKey(String)
        case badValue(key: String, expected: String)

        var description: String {
            switch self {
            case .notAnObject: "expected a JSON object, e.g. {\"creditsUSD\":5}"
            case .unknownKey(let key):
                "unknown key \(key) (known: \(BillingSettingsUpdate.keys.sorted().joined(separator: ", ")))"
            case .badValue(let key, let expected): "\(key) must be \(expected)"
            }
        }
    }

    static let keys: Set<String> = [
        "creditsUSD", "spendCapUSD", "usageCapPostReads", "cycleStartDay", "notEnrolled", "repliesRequireSummons",
        "ownsApp", "prices", "refusalShape",
    ]

    /// Outer nil: unchanged; inner nil: unlimited / none.
    var creditsMicros: Int??
    var spendCapMicros: Int??
    var usageCapPostReads: Int??
    var cycleStartDay: Int?
    var notEnrolled: [(EmulatorEndpoint, EmulatorRefusal?)] = []
    var repliesRequireSummons: Bool?
    var ownsApp: Bool?
    var prices: [(EmulatorResourceKind, Double)] = []
    var refusalShape: EmulatorRefusalShape?

    init(_ body: [UInt8]) throws(Problem) {
        guard let object = JSONBody.object(body) else { throw .notAnObject }
        if let unknown = object.keys.sorted().first(where: { !Self.keys.contains($0) }) { throw .unknownKey(unknown) }

        func money(_ key: String) throws(Problem) -> Int?? {
            guard let value = object[key] else { return nil }
            if value is NSNull { return .some(nil) }
            guard let number = Self.number(value), number >= 0, let micros = MicroDollars.from(usd: number) else {
                throw .badValue(key: key, expected: "a number of dollars, 0 or more, or null")
            }
            return .some(micros)
        }
        creditsMicros = try money("creditsUSD")
        spendCapMicros = try money("spendCapUSD")
        if let value = object["usageCapPostReads"] {
            if value is NSNull {
                usageCapPostReads = .some(nil)
            } else if let number = Self.number(value), number >= 0, number <= 1e15, number == number.rounded() {
                usageCapPostReads = .some(Int(number))
            } else {
                throw .badValue(key: "usageCapPostReads", expected: "a whole number, 0 or more, or null")
            }
        }
        if let value = object["cycleStartDay"] {
            guard let number = Self.number(value), number == number.rounded(), (1...28).contains(number) else {
                throw .badValue(key: "cycleStartDay", expected: "a day of the month, 1 to 28")
            }
            cycleStartDay = Int(number)
        }
        if let value = object["notEnrolled"] {
            let expected =
                "an object of endpoint (\(EmulatorEndpoint.allCases.map(\.rawValue).joined(separator: "|"))) "
                + "to \(EmulatorRefusal.allCases.map(\.rawValue).joined(separator: "|")) or null"
            guard let map = value as? [String: Any] else { throw .badValue(key: "notEnrolled", expected: expected) }
            for (name, reason) in map.sorted(by: { $0.key < $1.key }) {
                guard let endpoint = EmulatorEndpoint(rawValue: name) else {
                    throw .badValue(key: "notEnrolled", expected: expected)
                }
                if reason is NSNull {
                    notEnrolled.append((endpoint, nil))
                } else if let text = reason as? String, let refusal = EmulatorRefusal(rawValue: text) {
                    notEnrolled.append((endpoint, refusal))
                } else {
                    throw .badValue(key: "notEnrolled", expected: expected)
                }
            }
        }
        repliesRequireSummons = try Self.flag(object, "repliesRequireSummons")
        ownsApp = try Self.flag(object, "ownsApp")
        if let value = object["refusalShape"] {
            guard let name = value as? String, let shape = EmulatorRefusalShape(rawValue: name) else {
                throw .badValue(key: "refusalShape", expected: EmulatorRefusalShape.allCases.map(\.rawValue).joined(separator: "|"))
            }
            refusalShape = shape
        }
        if let value = object["prices"] {
            let names = EmulatorResourceKind.allCases.map(\.priceKey)
            let expected = "an object of \(names.joined(separator: "|")) to dollars (0 or more)"
            guard let map = value as? [String: Any] else { throw .badValue(key: "prices", expected: expected) }
            for (name, price) in map.sorted(by: { $0.key < $1.key }) {
                guard let kind = EmulatorResourceKind.allCases.first(where: { $0.priceKey == name }),
                    let number = Self.number(price), number >= 0, MicroDollars.from(usd: number) != nil
                else {
                    throw .badValue(key: "prices", expected: expected)
                }
                prices.append((kind, number))
            }
        }
    }

    /// Applies the update (the caller holds the state lock).
    func apply(to ledger: inout BillingLedger, today: Int) {
        if let creditsMicros { ledger.creditsMicros = creditsMicros }
        if let spendCapMicros { ledger.spendCapMicros = spendCapMicros }
        if let usageCapPostReads { ledger.usageCapPostReads = usageCapPostReads }
        if let cycleStartDay { ledger.setCycleStartDay(cycleStartDay, today: today) }
        for (endpoint, refusal) in notEnrolled { ledger.refusals[endpoint] = refusal }
        if let repliesRequireSummons { ledger.repliesRequireSummons = repliesRequireSummons }
        if let ownsApp { ledger.ownsApp = ownsApp }
        if let refusalShape { ledger.refusalShape = refusalShape }
        for (kind, price) in prices { ledger.prices[kind] = price }
    }

    /// A JSON number (not a boolean, which Foundation also hands over as an NSNumber).
    private static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        let double = number.doubleValue
        return double.isFinite ? double : nil
    }

    private static func flag(_ object: [String: Any], _ key: String) throws(Problem) -> Bool? {
        guard let value = object[key] else { return nil }
        guard let number = value as? NSNumber, isBoolean(number) else { throw .badValue(key: key, expected: "true or false") }
        return number.boolValue
    }

    /// Foundation's JSON reader gives booleans as NSNumbers of type `c` (char), and no
    /// JSON number comes back as that type.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
