import Foundation
import Testing
import TwfeedBilling

@Suite("BudgetPlan")
struct BudgetPlanTests {
    let monthly: BillingCycle

    init() throws {
        monthly = try BillingCycle(startDay: 1)
    }

    @Test("today's allowance is what is left over the days left, today included")
    func allowance() {
        // 25 Nov: 6 days left (25..30); $30 budget, $18 spent before today, $0.50 today.
        let plan = BudgetPlan(monthlyBudget: usd("30"), cycle: monthly,
                              spentBeforeToday: usd("18"), spentToday: usd("0.5"), now: utc("2026-11-25T10:00:00Z"))
        #expect(plan.daysLeft == 6)
        #expect(plan.allowanceToday == usd("2"))
        #expect(plan.leftToday == usd("1.5"))
        #expect(plan.leftInCycle == usd("11.5"))
        #expect(plan.spentInCycle == usd("18.5"))
        #expect(plan.todayEnds == utc("2026-11-26T00:00:00Z"))
        #expect(plan.cycle.start == utc("2026-11-01T00:00:00Z"))
        #expect(plan.fits(usd("1.5")))
        #expect(!plan.fits(usd("1.500001")))
    }

    @Test("the allowance rounds down, so the days together never pass the budget")
    func roundsDown() {
        let plan = BudgetPlan(monthlyBudget: usd("1"), cycle: monthly,
                              spentBeforeToday: .zero, spentToday: .zero, now: utc("2026-11-01T00:00:00Z"))
        // $1 over 30 days is $0.0333333…
        #expect(plan.allowanceToday == usd("0.033333"))
    }

    @Test("on the last day everything left may be spent, and not a micro-dollar more")
    func lastDay() {
        let plan = BudgetPlan(monthlyBudget: usd("30"), cycle: monthly,
                              spentBeforeToday: usd("29.2"), spentToday: usd("0.3"), now: utc("2026-11-30T22:00:00Z"))
        #expect(plan.daysLeft == 1)
        #expect(plan.allowanceToday == usd("0.8"))
        #expect(plan.leftToday == usd("0.5"))
        #expect(plan.fits(usd("0.5")))
        #expect(!plan.fits(usd("0.500001")))
    }

    @Test("a daemon that spends all it may, every day, ends the cycle within the budget")
    func wholeCycle() {
        let budget = usd("10")
        var before = MicroUSD.zero
        var day = utc("2026-02-01T00:00:00Z")  // a 28-day cycle
        let requests = [usd("0.515"), usd("0.2"), usd("0.035"), usd("0.005")]
        while day < utc("2026-03-01T00:00:00Z") {
            var today = MicroUSD.zero
            var progress = true
            while progress {
                progress = false
                for request in requests {
                    let plan = BudgetPlan(monthlyBudget: budget, cycle: monthly, spentBeforeToday: before,
                                          spentToday: today, now: day.addingTimeInterval(3_600))
                    if plan.fits(request) {
                        today += request
                        progress = true
                    }
                }
            }
            before += today
            #expect(before <= budget)
            day = day.addingTimeInterval(86_400)
        }
        #expect(before <= budget)
        // The last day mops up: less than the smallest request is left unspent.
        #expect(budget - before < usd("0.005"))
    }

    @Test("a budget already passed (lowered mid-cycle) leaves nothing, not a negative amount")
    func overspent() {
        let plan = BudgetPlan(monthlyBudget: usd("5"), cycle: monthly,
                              spentBeforeToday: usd("6"), spentToday: usd("0.2"), now: utc("2026-11-10T00:00:00Z"))
        #expect(plan.allowanceToday == .zero)
        #expect(plan.leftToday == .zero)
        #expect(plan.leftInCycle == .zero)
        #expect(!plan.fits(usd("0.005")))
        #expect(plan.fits(.zero))
    }

    @Test("without a budget every request fits and there is nothing to show")
    func noBudget() {
        let plan = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                              spentBeforeToday: usd("500"), spentToday: usd("50"), now: utc("2026-11-30T23:00:00Z"))
        #expect(plan.fits(usd("1000000")))
        #expect(plan.allowanceToday == nil)
        #expect(plan.leftToday == nil)
        #expect(plan.leftInCycle == nil)
        #expect(plan.affordablePosts(prices: .published) == nil)
    }

    @Test("the projection extends the pace so far to the whole cycle")
    func projection() {
        // Half of November gone, $10 spent: $20 at the end.
        let half = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                              spentBeforeToday: usd("10"), spentToday: .zero, now: utc("2026-11-16T00:00:00Z"))
        #expect(half.projectedCycleSpend == usd("20"))
        // A tenth of the way (3 of 30 days) with $1.20: $12.
        let tenth = BudgetPlan(monthlyBudget: usd("10"), cycle: monthly,
                               spentBeforeToday: usd("1"), spentToday: usd("0.2"), now: utc("2026-11-04T00:00:00Z"))
        #expect(tenth.projectedCycleSpend == usd("12"))
        // Nothing spent projects nothing.
        let idle = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                              spentBeforeToday: .zero, spentToday: .zero, now: utc("2026-11-20T00:00:00Z"))
        #expect(idle.projectedCycleSpend == .zero)
    }

    @Test("five minutes into a cycle the projection is that pace for a day, every day; not a division by ~0")
    func projectionAtStart() {
        let early = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                               spentBeforeToday: .zero, spentToday: usd("0.5"), now: utc("2026-11-01T00:05:00Z"))
        #expect(early.projectedCycleSpend == usd("15"))
        let first = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                               spentBeforeToday: .zero, spentToday: usd("0.5"), now: utc("2026-11-01T00:00:00Z"))
        #expect(first.projectedCycleSpend == usd("15"))
        // In the last second, the projection is what was spent (to the micro-dollar).
        let last = BudgetPlan(monthlyBudget: nil, cycle: monthly,
                              spentBeforeToday: usd("29"), spentToday: usd("1"), now: utc("2026-11-30T23:59:59Z"))
        #expect(last.projectedCycleSpend >= usd("30"))
        #expect(last.projectedCycleSpend <= usd("30.000012"))
    }

    @Test("how many posts of a page fit in what is left today")
    func affordablePosts() {
        // $0.30 left today.
        let plan = BudgetPlan(monthlyBudget: usd("30"), cycle: monthly,
                              spentBeforeToday: .zero, spentToday: usd("0.7"), now: utc("2026-11-01T12:00:00Z"))
        #expect(plan.leftToday == usd("0.3"))
        // A post and its author: $0.015 each, 20 of them.
        let home = plan.affordablePosts(prices: .published)
        #expect(home == BudgetPlan.ReadAllowance(posts: 20, users: 20, referencedPosts: 0))
        // Posts alone: 60.
        #expect(plan.affordablePosts(usersPerPost: 0, prices: .published)?.posts == 60)
        // Owned mentions with their author: $0.011 each, 27.
        #expect(plan.affordablePosts(reads: .ownedRead, prices: .published)?.posts == 27)
        // Worst case with two referenced posts and their authors: 0.005 + 3 × 0.010 + 2 × 0.005 = $0.045, 6.
        #expect(plan.affordablePosts(usersPerPost: 3, referencedPostsPerPost: 2, prices: .published)
            == BudgetPlan.ReadAllowance(posts: 6, users: 18, referencedPosts: 12))
        // What the answer says fits does fit.
        let cost = ResourceCount(postReads: 6 + 12, userReads: 18).cost(at: .published)
        #expect(plan.fits(cost))
        #expect(!plan.fits(cost + ResourceCount(postReads: 3, userReads: 3).cost(at: .published)))
        // Free reads are not limited.
        var free = Prices.published
        free.postRead = .zero
        #expect(plan.affordablePosts(usersPerPost: 0, prices: free) == nil)
    }

    @Test("nothing left today means no posts, not a negative count")
    func nothingLeft() {
        let plan = BudgetPlan(monthlyBudget: usd("1"), cycle: monthly,
                              spentBeforeToday: usd("2"), spentToday: .zero, now: utc("2026-11-05T12:00:00Z"))
        #expect(plan.affordablePosts(prices: .published)?.posts == 0)
    }
}
