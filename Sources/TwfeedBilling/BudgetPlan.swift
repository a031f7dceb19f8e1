import Foundation

/// How much of the monthly budget may be spent today, and whether a request fits in it.
///
/// A monthly budget spent as fast as the polls can spend it would be gone in a week, so
/// what is left of it is spread evenly over the cycle's remaining UTC days: today's
/// allowance is (budget − spent before today) ÷ (days left, today included), rounded
/// down to the micro-dollar. Money not spent today raises the following days'
/// allowances; on the last day the allowance is everything left, and never more, so the
/// cycle's total cannot pass the budget. Without a budget every request fits and the
/// `MicroUSD?` figures are nil.
///
/// Requests are checked at their worst case (every post and user in the answer new
/// today), since the cost is only known once the answer has come and been paid for.
package struct BudgetPlan: Hashable, Sendable {
    package let budget: MicroUSD?
    /// The cycle `now` falls in.
    package let cycle: DateInterval
    package let now: Date
    package let spentBeforeToday: MicroUSD
    package let spentToday: MicroUSD
    /// UTC days left in the cycle counting today (at least 1).
    package let daysLeft: Int
    /// Today's share of what is left of the budget; nil without a budget.
    package let allowanceToday: MicroUSD?
    /// What may still be spent today (never negative); nil without a budget.
    package let leftToday: MicroUSD?
    /// What may still be spent in this cycle (never negative); nil without a budget.
    package let leftInCycle: MicroUSD?
    /// When today's allowance is renewed: the next 00:00 UTC, what `budget_limited`'s
    /// `until` shows.
    package let todayEnds: Date

    /// - Parameters:
    ///   - spentBeforeToday: spent in this cycle on the UTC days before today's.
    ///   - spentToday: spent since 00:00 UTC today.
    package init(
        monthlyBudget budget: MicroUSD?,
        cycle billingCycle: BillingCycle,
        spentBeforeToday: MicroUSD,
        spentToday: MicroUSD,
        now: Date
    ) {
        self.budget = budget
        self.now = now
        self.spentBeforeToday = spentBeforeToday
        self.spentToday = spentToday
        cycle = billingCycle.cycle(containing: now)
        daysLeft = billingCycle.daysLeft(includingDayOf: now)
        todayEnds = BillingCycle.endOfUTCDay(now)
        if let budget {
            let allowance = MicroUSD(micros: (budget - spentBeforeToday).clampedToZero.micros / Int64(Swift.max(daysLeft, 1)))
            allowanceToday = allowance
            // The allowance is at most what was left before today, so what is left today
            // is never more than what is left in the cycle: checking today's is enough.
            leftToday = (allowance - spentToday).clampedToZero
            leftInCycle = (budget - spentBeforeToday - spentToday).clampedToZero
        } else {
            allowanceToday = nil
            leftToday = nil
            leftInCycle = nil
        }
    }

    /// Spent in this cycle so far.
    package var spentInCycle: MicroUSD { spentBeforeToday + spentToday }

    /// Whether a request that costs at most `worstCase` may be sent now.
    package func fits(_ worstCase: MicroUSD) -> Bool {
        guard let leftToday else { return true }
        return worstCase <= leftToday
    }

    /// What the cycle will have cost at its end if spending goes on at the pace so far:
    /// spent ÷ elapsed fraction of the cycle. The elapsed time counts as at least one day,
    /// so in the first minutes of a cycle (when the day's first polls pay for every post
    /// anew) the projection is "this day's spending every day" instead of dividing by
    /// almost zero. At or after the end it is what was spent. Never less than `spentInCycle`.
    package var projectedCycleSpend: MicroUSD {
        let spent = spentInCycle
        guard spent.micros > 0 else { return spent }
        let duration = cycle.duration
        let elapsed = Swift.min(Swift.max(now.timeIntervalSince(cycle.start), 86_400), duration)
        let projected = (Double(spent.micros) * (duration / elapsed)).rounded()
        guard projected < 9.0e18 else { return MicroUSD(micros: .max) }
        return Swift.max(spent, MicroUSD(micros: Int64(projected)))
    }

    /// How many posts of one read fit in what is left today, for a syncer that can then
    /// ask for only the newest part (`max_results`) instead of being refused outright.
    /// Each post is priced at its worst case: the post at `kind`'s price, plus
    /// `usersPerPost` users (its author in `includes.users`, and the authors of what it
    /// references) and `referencedPostsPerPost` posts in `includes.tweets`.
    /// nil without a budget, or when such a post costs nothing: no limit.
    package func affordablePosts(
        reads kind: BillableKind = .postRead,
        usersPerPost: Int = 1,
        referencedPostsPerPost: Int = 0,
        prices: Prices
    ) -> ReadAllowance? {
        guard let leftToday else { return nil }
        let users = Swift.max(usersPerPost, 0)
        let referenced = Swift.max(referencedPostsPerPost, 0)
        let perPost = prices.price(of: kind) + prices.userRead * users + prices.postRead * referenced
        guard perPost.micros > 0 else { return nil }
        let posts = Int(leftToday.micros / perPost.micros)
        func times(_ count: Int) -> Int {
            let (product, overflow) = posts.multipliedReportingOverflow(by: count)
            return overflow ? .max : product
        }
        return ReadAllowance(posts: posts, users: times(users), referencedPosts: times(referenced))
    }
}

extension BudgetPlan {
    /// The most a syncer may ask for within today's budget.
    package struct ReadAllowance: Hashable, Sendable {
        /// Posts of the read's own kind.
        package let posts: Int
        /// Users those posts may bring along at most.
        package let users: Int
        /// Referenced posts they may bring along at most.
        package let referencedPosts: Int

        package init(posts: Int, users: Int, referencedPosts: Int) {
            self.posts = posts
            self.users = users
            self.referencedPosts = referencedPosts
        }
    }
}
