import Foundation
import Testing
import TwfeedBilling

@Suite("BillingCycle")
struct BillingCycleTests {
    @Test("start days outside 1-28 are refused with the day in the message", arguments: [0, 29, 30, 31, -1, 100])
    func invalidStartDay(day: Int) {
        #expect(throws: BillingCycle.InvalidStartDay(day: day)) { try BillingCycle(startDay: day) }
        #expect(BillingCycle.InvalidStartDay(day: day).description.hasSuffix("not \(day)"))
    }

    @Test("a cycle on the 1st is the calendar month in UTC")
    func calendarMonth() throws {
        let cycle = try BillingCycle(startDay: 1)
        let interval = cycle.cycle(containing: utc("2026-11-25T10:00:00Z"))
        #expect(interval.start == utc("2026-11-01T00:00:00Z"))
        #expect(interval.end == utc("2026-12-01T00:00:00Z"))
        #expect(cycle.days(inCycleContaining: utc("2026-11-25T10:00:00Z")) == 30)
        // December runs into the next year.
        let december = cycle.cycle(containing: utc("2026-12-31T23:59:59Z"))
        #expect(december.start == utc("2026-12-01T00:00:00Z"))
        #expect(december.end == utc("2027-01-01T00:00:00Z"))
    }

    @Test("a cycle on the 14th runs from the 14th to the 14th, across a year end")
    func midMonth() throws {
        let cycle = try BillingCycle(startDay: 14)
        let before = cycle.cycle(containing: utc("2026-04-13T23:59:59Z"))
        #expect(before.start == utc("2026-03-14T00:00:00Z"))
        #expect(before.end == utc("2026-04-14T00:00:00Z"))
        let january = cycle.cycle(containing: utc("2027-01-05T12:00:00Z"))
        #expect(january.start == utc("2026-12-14T00:00:00Z"))
        #expect(january.end == utc("2027-01-14T00:00:00Z"))
    }

    @Test("the instant a cycle starts belongs to the new cycle, the one before to the old")
    func boundary() throws {
        let cycle = try BillingCycle(startDay: 14)
        let start = utc("2026-04-14T00:00:00Z")
        #expect(cycle.cycle(containing: start).start == start)
        #expect(cycle.cycle(containing: start.addingTimeInterval(-0.001)).end == start)
        #expect(cycle.daysLeft(includingDayOf: start) == 30)
        #expect(cycle.daysLeft(includingDayOf: start.addingTimeInterval(-1)) == 1)
    }

    @Test("February: 28 days, 29 in a leap year, and a cycle on the 28th")
    func february() throws {
        let first = try BillingCycle(startDay: 1)
        #expect(first.days(inCycleContaining: utc("2026-02-10T00:00:00Z")) == 28)
        #expect(first.days(inCycleContaining: utc("2028-02-10T00:00:00Z")) == 29)
        #expect(first.daysLeft(includingDayOf: utc("2028-02-29T23:00:00Z")) == 1)
        #expect(first.cycle(containing: utc("2028-02-29T23:00:00Z")).end == utc("2028-03-01T00:00:00Z"))
        // 2100 is not a leap year, 2000 was.
        #expect(first.days(inCycleContaining: utc("2100-02-10T00:00:00Z")) == 28)
        #expect(first.days(inCycleContaining: utc("2000-02-10T00:00:00Z")) == 29)

        let twentyEighth = try BillingCycle(startDay: 28)
        let leap = twentyEighth.cycle(containing: utc("2028-03-01T00:00:00Z"))
        #expect(leap.start == utc("2028-02-28T00:00:00Z"))
        #expect(leap.end == utc("2028-03-28T00:00:00Z"))
        #expect(twentyEighth.days(inCycleContaining: utc("2028-03-01T00:00:00Z")) == 29)
        #expect(twentyEighth.days(inCycleContaining: utc("2026-03-01T00:00:00Z")) == 28)
        // On the 31st of a month a cycle on the 28th is 3 days old.
        let late = twentyEighth.cycle(containing: utc("2026-01-31T08:00:00Z"))
        #expect(late.start == utc("2026-01-28T00:00:00Z"))
        #expect(late.end == utc("2026-02-28T00:00:00Z"))
        #expect(twentyEighth.daysLeft(includingDayOf: utc("2026-01-31T08:00:00Z")) == 28)
    }

    @Test("days left count today, down to 1 on the last day")
    func daysLeft() throws {
        let cycle = try BillingCycle(startDay: 1)
        #expect(cycle.daysLeft(includingDayOf: utc("2026-11-01T00:00:00Z")) == 30)
        #expect(cycle.daysLeft(includingDayOf: utc("2026-11-25T10:00:00Z")) == 6)
        #expect(cycle.daysLeft(includingDayOf: utc("2026-11-30T23:59:59Z")) == 1)
        #expect(cycle.daysLeft(includingDayOf: utc("2026-01-31T00:00:00Z")) == 1)
    }

    @Test("a UTC day is named and bounded in UTC, whatever the machine's zone")
    func utcDay() {
        #expect(BillingCycle.utcDay(of: utc("2026-11-25T23:59:59Z")) == "2026-11-25")
        #expect(BillingCycle.utcDay(of: utc("2026-11-26T00:00:00Z")) == "2026-11-26")
        #expect(BillingCycle.utcDay(of: utc("2026-11-26T00:00:00Z").addingTimeInterval(-0.5)) == "2026-11-25")
        // Far dates (proleptic Gregorian, as the API's ISO dates are).
        #expect(BillingCycle.utcDay(of: Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31")
        #expect(BillingCycle.utcDay(of: Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01")
        #expect(BillingCycle.utcDay(of: utc("1969-12-31T12:00:00Z")) == "1969-12-31")
        #expect(BillingCycle.startOfUTCDay(utc("2026-11-25T10:30:00Z")) == utc("2026-11-25T00:00:00Z"))
        #expect(BillingCycle.endOfUTCDay(utc("2026-12-31T10:30:00Z")) == utc("2027-01-01T00:00:00Z"))
        #expect(BillingCycle.utcDay(of: Date(timeIntervalSince1970: .nan)) == "1970-01-01")
    }

    @Test("every day of four years maps back to itself")
    func roundTrip() {
        var day = utc("2025-12-31T00:00:00Z")
        var previous = ""
        for _ in 0..<(4 * 366) {
            let name = BillingCycle.utcDay(of: day.addingTimeInterval(43_200))
            #expect(name > previous)
            #expect(BillingCycle.startOfUTCDay(day.addingTimeInterval(86_399)) == day)
            previous = name
            day = day.addingTimeInterval(86_400)
        }
        #expect(previous == "2030-01-02")
    }
}
