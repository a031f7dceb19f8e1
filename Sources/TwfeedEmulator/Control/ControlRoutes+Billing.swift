/// `/_emulator/bill` and `/_emulator/billing`: the bill as JSON, and its settings.
extension ControlRoutes {
    /// `GET /_emulator/bill`.
    static func bill(_ core: EmulatorCore) -> EmulatorResponse {
        let (bill, settings) = core.state.withLock { state in
            (state.billing.bill(today: BillingCalendar.day(state.now)), billingSettings(state.billing))
        }
        return .json(200, billJSON(bill, settings: settings))
    }

    /// `POST /_emulator/billing`: applies the body whole, or answers 400 and changes nothing.
    static func updateBilling(_ request: EmulatorRequest, core: EmulatorCore) -> EmulatorResponse {
        let update: BillingSettingsUpdate
        do {
            update = try BillingSettingsUpdate(request.body)
        } catch {
            return .json(400, .object([("error", .string(error.description))]))
        }
        return .json(
            200,
            core.state.withLock { state in
                update.apply(to: &state.billing, today: BillingCalendar.day(state.now))
                return billingSettings(state.billing)
            }
        )
    }

    /// `GET /_emulator/billing`.
    static func billingSettings(_ core: EmulatorCore) -> EmulatorResponse {
        .json(200, core.state.withLock { billingSettings($0.billing) })
    }

    /// The settings as `POST /_emulator/billing` takes them.
    private static func billingSettings(_ ledger: BillingLedger) -> EmulatorJSON {
        func money(_ micros: Int?) -> EmulatorJSON { micros.map(MicroDollars.json) ?? .null }
        return .object([
            ("creditsUSD", money(ledger.creditsMicros)),
            ("spendCapUSD", money(ledger.spendCapMicros)),
            ("usageCapPostReads", ledger.usageCapPostReads.map(EmulatorJSON.int) ?? .null),
            ("cycleStartDay", .int(ledger.cycleStartDay)),
            (
                "notEnrolled",
                .object(
                    EmulatorEndpoint.allCases.compactMap { endpoint in
                        ledger.refusals[endpoint].map { (endpoint.rawValue, .string($0.rawValue)) }
                    }
                )
            ),
            ("repliesRequireSummons", .bool(ledger.repliesRequireSummons)),
            ("ownsApp", .bool(ledger.ownsApp)),
            ("refusalShape", .string(ledger.refusalShape.rawValue)),
            (
                "prices",
                .object(
                    EmulatorResourceKind.allCases.map { kind in
                        (kind.priceKey, MicroDollars.json(ledger.prices.micros(kind)))
                    }
                )
            ),
        ])
    }

    private static func billJSON(_ bill: EmulatorBill, settings: EmulatorJSON) -> EmulatorJSON {
        .object([
            ("totalUSD", MicroDollars.json(bill.totalMicros)),
            ("cycleUSD", MicroDollars.json(bill.cycleMicros)),
            ("creditsUSD", bill.creditsMicros.map(MicroDollars.json) ?? .null),
            ("cycleStart", .string(bill.cycleStart)),
            ("nextCycleStart", .string(bill.nextCycleStart)),
            ("cyclePostReads", .int(bill.cycle.postReads)),
            ("total", tallyJSON(bill.total)),
            (
                "days",
                .array(
                    bill.days.map { day in
                        .object([("day", .string(day.day))] + tallyMembers(day.tally))
                    }
                )
            ),
            (
                "byEndpoint",
                .object(
                    EmulatorEndpoint.allCases.compactMap { endpoint in
                        bill.byEndpoint[endpoint].map { (endpoint.rawValue, tallyJSON($0)) }
                    }
                )
            ),
            ("settings", settings),
        ])
    }

    private static func tallyJSON(_ tally: EmulatorBill.Tally) -> EmulatorJSON {
        .object(tallyMembers(tally))
    }

    /// `usd`, `resources` (counts by kind, every kind listed), `usdByKind`,
    /// `deduplicated` and `requests`.
    private static func tallyMembers(_ tally: EmulatorBill.Tally) -> [(String, EmulatorJSON)] {
        [
            ("usd", MicroDollars.json(tally.micros)),
            ("resources", .object(EmulatorResourceKind.allCases.map { ($0.rawValue, .int(tally.count($0))) })),
            ("usdByKind", .object(EmulatorResourceKind.allCases.map { ($0.rawValue, MicroDollars.json(tally.micros($0))) })),
            ("deduplicated", .int(tally.deduplicated)),
            ("requests", .int(tally.requests)),
        ]
    }
}
