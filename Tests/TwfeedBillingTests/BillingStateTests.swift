import Testing
import TwfeedBilling

@Suite("BillingState")
struct BillingStateTests {
    @Test("the contract's state names")
    func names() {
        #expect(BillingState.allCases.map(\.rawValue) == ["ok", "budget_limited", "out_of_credits", "spend_cap", "usage_cap"])
    }

    @Test("only ok and budget_limited let status exit 0")
    func healthy() {
        #expect(BillingState.allCases.filter(\.isHealthy) == [.ok, .budgetLimited])
    }

    @Test("refusals enter the account's states; an endpoint refusal is the feed's")
    func entering() {
        #expect(BillingState(entering: .creditsDepleted(detail: "")) == .outOfCredits)
        #expect(BillingState(entering: .spendCapReached(resetDate: nil, detail: "")) == .spendCap)
        #expect(BillingState(entering: .usageCapExceeded(period: "Monthly", detail: "")) == .usageCap)
        for reason in NotPermittedReason.allCases {
            #expect(BillingState(entering: .notPermitted(reason, detail: "")) == nil)
        }
    }

    @Test("sources keep the ledger's names and order; the budget serves the outbox before reads")
    func sources() {
        #expect(BillingSource.allCases.map(\.rawValue)
            == ["home", "mentions", "retweets", "lookups", "outbox", "settlement", "account"])
        let served = BillingSource.allCases.sorted { $0.budgetRank < $1.budgetRank }
        #expect(served == [.account, .outbox, .settlement, .mentions, .home, .retweets, .lookups])
        #expect(Set(BillingSource.budgetPriority) == Set(BillingSource.allCases))
        #expect(BillingSource.allCases.filter { $0.action == .post } == [.outbox])
    }
}
