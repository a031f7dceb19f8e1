import Testing
import TwfeedBilling

@Suite("ResourceCount")
struct ResourceCountTests {
    @Test("a home page of 20 posts with 20 authors and 3 referenced posts costs $0.315")
    func homePage() {
        let page = ResourceCount(postReads: 23, userReads: 20)
        #expect(page.cost(at: .published) == usd("0.315"))
        #expect(page.cost(at: .published).formatted == "$0.315")
    }

    @Test("a day adds up per kind and prices every kind")
    func dayTotal() {
        var day = ResourceCount.zero
        day += ResourceCount(.postRead, 100)
        day += ResourceCount(.ownedRead, 50)
        day += ResourceCount(.userRead, 10)
        day = day + ResourceCount(posts: 2, postsWithURL: 1, postsSummoned: 3)
        #expect(day == ResourceCount(postReads: 100, ownedReads: 50, userReads: 10, posts: 2, postsWithURL: 1, postsSummoned: 3))
        // 0.500 + 0.050 + 0.100 + 0.030 + 0.200 + 0.030
        #expect(day.cost(at: .published) == usd("0.91"))
        #expect(day[.postCreateSummoned] == 3)
        var cheaper = Prices.published
        cheaper.postCreateWithURL = usd("0.1")
        #expect(day.cost(at: cheaper) == usd("0.81"))
    }

    @Test("an empty answer is free and empty")
    func empty() {
        #expect(ResourceCount.zero.isEmpty)
        #expect(ResourceCount.zero.cost(at: .published) == .zero)
        for kind in BillableKind.allCases {
            #expect(!ResourceCount(kind, 1).isEmpty)
            #expect(ResourceCount(kind, 1).cost(at: .published) == Prices.published.price(of: kind))
        }
    }

    @Test("a hostile count saturates instead of trapping")
    func saturates() {
        let huge = ResourceCount(.postRead, .max) + ResourceCount(.postRead, 1)
        #expect(huge.postReads == .max)
        #expect(huge.cost(at: .published) == MicroUSD(micros: .max))
    }
}
