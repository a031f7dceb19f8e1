import Foundation
import Testing
import TwfeedBilling

@Suite("BillingStateMachine")
struct BillingStateMachineTests {
    /// 15-minute recheck (the default `creditsRecheckMinutes`), cycles on the 14th.
    let machine: BillingStateMachine
    let start = utc("2026-03-20T10:00:00Z")

    init() throws {
        machine = BillingStateMachine(recheck: 15 * 60, cycle: try BillingCycle(startDay: 14))
    }

    @Test("ok lets everything through and needs no probe")
    func ok() {
        let status = BillingStatus.ok(since: start)
        #expect(machine.decide(.read, in: status, now: start) == .allow)
        #expect(machine.decide(.post, in: status, now: start) == .allow)
        #expect(machine.nextProbe(in: status) == nil)
    }

    @Test("out of credits: nothing but one probe per recheck interval, then ok on success")
    func outOfCredits() {
        var status = machine.refused(.creditsDepleted(detail: "no credits"), in: .ok(since: start), at: start)
        #expect(status.state == .outOfCredits)
        #expect(status.since == start)
        #expect(status.until == nil)
        #expect(status.detail == "no credits")

        let firstProbe = start.addingTimeInterval(15 * 60)
        for action in BillableAction.allCases {
            #expect(machine.decide(action, in: status, now: start.addingTimeInterval(60)) == .wait(until: firstProbe))
            #expect(machine.decide(action, in: status, now: firstProbe.addingTimeInterval(-1)) == .wait(until: firstProbe))
        }
        #expect(machine.decide(.read, in: status, now: firstProbe) == .probe)

        // The probe goes out: nothing else may until the next interval.
        status = machine.probed(status, at: firstProbe)
        let secondProbe = firstProbe.addingTimeInterval(15 * 60)
        #expect(machine.decide(.post, in: status, now: firstProbe.addingTimeInterval(1)) == .wait(until: secondProbe))
        // It is refused again: same state, same since.
        status = machine.refused(.creditsDepleted(detail: "still none"), in: status, at: firstProbe.addingTimeInterval(2))
        #expect(status.state == .outOfCredits)
        #expect(status.since == start)
        #expect(status.detail == "still none")
        #expect(machine.nextProbe(in: status) == firstProbe.addingTimeInterval(2 + 15 * 60))

        // Someone adds credits; the next probe succeeds.
        let later = start.addingTimeInterval(3_600)
        #expect(machine.decide(.read, in: status, now: later) == .probe)
        status = machine.succeeded(.read, in: machine.probed(status, at: later), at: later.addingTimeInterval(1))
        #expect(status == .ok(since: later.addingTimeInterval(1)))
        #expect(machine.decide(.read, in: status, now: later.addingTimeInterval(2)) == .allow)
    }

    @Test("spend cap: nothing until reset_date, then a probe at once, then one per recheck")
    func spendCap() {
        let reset = utc("2026-04-14T00:00:00Z")
        var status = machine.refused(.spendCapReached(resetDate: reset, detail: "cap"), in: .ok(since: start), at: start)
        #expect(status.state == .spendCap)
        #expect(status.until == reset)
        // Not every 15 minutes for three weeks: not before the reset at all.
        #expect(machine.decide(.read, in: status, now: start.addingTimeInterval(15 * 60)) == .wait(until: reset))
        #expect(machine.decide(.post, in: status, now: reset.addingTimeInterval(-1)) == .wait(until: reset))
        #expect(machine.decide(.post, in: status, now: reset) == .probe)

        status = machine.probed(status, at: reset)
        #expect(machine.decide(.read, in: status, now: reset.addingTimeInterval(60)) == .wait(until: reset.addingTimeInterval(15 * 60)))
        // Still capped past the date (the console's cycle differs): recheck pace, no hot loop.
        status = machine.refused(.spendCapReached(resetDate: reset, detail: "cap"), in: status, at: reset.addingTimeInterval(1))
        #expect(machine.nextProbe(in: status) == reset.addingTimeInterval(1 + 15 * 60))

        status = machine.succeeded(.post, in: status, at: reset.addingTimeInterval(3_600))
        #expect(status.state == .ok)
    }

    @Test("spend cap without a reset date probes at the recheck pace")
    func spendCapWithoutDate() {
        let status = machine.refused(.spendCapReached(resetDate: nil, detail: "cap"), in: .ok(since: start), at: start)
        #expect(status.until == nil)
        #expect(machine.nextProbe(in: status) == start.addingTimeInterval(15 * 60))
    }

    @Test("a reset date already past when entered gives one probe, then the recheck pace")
    func staleResetDate() {
        let yesterday = utc("2026-03-19T00:00:00Z")
        var status = machine.refused(.spendCapReached(resetDate: yesterday, detail: ""), in: .ok(since: start), at: start)
        #expect(machine.decide(.read, in: status, now: start) == .probe)
        status = machine.probed(status, at: start)
        #expect(machine.decide(.read, in: status, now: start.addingTimeInterval(1)) == .wait(until: start.addingTimeInterval(15 * 60)))
    }

    @Test("usage cap: posts go out, reads wait for the cycle with one probe a day")
    func usageCap() {
        var status = machine.refused(.usageCapExceeded(period: "Monthly", detail: "cap"), in: .ok(since: start), at: start)
        let cycleEnd = utc("2026-04-14T00:00:00Z")
        #expect(status.state == .usageCap)
        #expect(status.until == cycleEnd)
        #expect(machine.decide(.post, in: status, now: start) == .allow)
        let tomorrow = start.addingTimeInterval(86_400)
        #expect(machine.decide(.read, in: status, now: start.addingTimeInterval(15 * 60)) == .wait(until: tomorrow))
        #expect(machine.decide(.read, in: status, now: tomorrow) == .probe)

        // A post succeeding says nothing about the read cap.
        #expect(machine.succeeded(.post, in: status, at: tomorrow) == status)

        // Daily probes until the last day, whose probe comes at the reset itself.
        status = machine.probed(status, at: tomorrow)
        status = machine.refused(.usageCapExceeded(period: "Monthly", detail: "cap"), in: status, at: tomorrow)
        #expect(status.since == start)
        status = machine.probed(status, at: utc("2026-04-13T10:00:00Z"))
        #expect(machine.nextProbe(in: status) == cycleEnd)
        #expect(machine.decide(.read, in: status, now: cycleEnd) == .probe)
        status = machine.succeeded(.read, in: machine.probed(status, at: cycleEnd), at: cycleEnd)
        #expect(status == .ok(since: cycleEnd))
    }

    @Test("a read refused for the usage cap after the reset keeps to one probe a day")
    func usageCapAfterReset() {
        let cycleEnd = utc("2026-04-14T00:00:00Z")
        var status = machine.refused(.usageCapExceeded(period: nil, detail: ""), in: .ok(since: start), at: start)
        status = machine.probed(status, at: cycleEnd)
        #expect(machine.nextProbe(in: status) == cycleEnd.addingTimeInterval(86_400))
        status = machine.refused(.usageCapExceeded(period: nil, detail: ""), in: status, at: cycleEnd.addingTimeInterval(1))
        #expect(status.until == utc("2026-05-14T00:00:00Z"))
        #expect(machine.nextProbe(in: status) == cycleEnd.addingTimeInterval(1 + 86_400))
    }

    @Test("a different refusal switches state and starts afresh")
    func switching() {
        let capped = machine.refused(.usageCapExceeded(period: nil, detail: "cap"), in: .ok(since: start), at: start)
        let later = start.addingTimeInterval(600)
        let broke = machine.refused(.creditsDepleted(detail: "none"), in: capped, at: later)
        #expect(broke == BillingStatus(state: .outOfCredits, since: later, until: nil, detail: "none"))
        #expect(machine.decide(.post, in: broke, now: later.addingTimeInterval(1)) == .wait(until: later.addingTimeInterval(900)))
    }

    @Test("an endpoint refusal leaves the account's state alone")
    func notPermitted() {
        let status = BillingStatus.ok(since: start)
        #expect(machine.refused(.notPermitted(.clientNotEnrolled, detail: ""), in: status, at: start.addingTimeInterval(5)) == status)
    }

    @Test("budget_limited until the next UTC midnight; a refusal state outranks it")
    func budget() {
        let evening = utc("2026-03-20T21:00:00Z")
        var status = machine.budget(limited: true, in: .ok(since: start), at: evening)
        #expect(status.state == .budgetLimited)
        #expect(status.until == utc("2026-03-21T00:00:00Z"))
        #expect(machine.decide(.read, in: status, now: evening) == .allow)  // the plan decides, not the state
        // Still limited the next day: same since, new until.
        status = machine.budget(limited: true, in: status, at: utc("2026-03-21T00:10:00Z"))
        #expect(status.since == evening)
        #expect(status.until == utc("2026-03-22T00:00:00Z"))
        #expect(machine.budget(limited: false, in: status, at: utc("2026-03-21T00:20:00Z")) == .ok(since: utc("2026-03-21T00:20:00Z")))
        #expect(machine.budget(limited: false, in: .ok(since: start), at: evening) == .ok(since: start))

        let broke = machine.refused(.creditsDepleted(detail: ""), in: status, at: evening)
        #expect(machine.budget(limited: true, in: broke, at: evening) == broke)
        #expect(machine.budget(limited: false, in: broke, at: evening) == broke)
    }

    @Test("a recheck of zero or NaN is raised to a minute, so probing never loops")
    func minimumRecheck() throws {
        let cycle = try BillingCycle(startDay: 1)
        #expect(BillingStateMachine(recheck: 0, cycle: cycle).recheck == 60)
        #expect(BillingStateMachine(recheck: .nan, cycle: cycle).recheck == 60)
        #expect(BillingStateMachine(recheck: -5, cycle: cycle).recheck == 60)
        #expect(BillingStateMachine(recheck: 1_800, cycle: cycle).recheck == 1_800)
    }
}
