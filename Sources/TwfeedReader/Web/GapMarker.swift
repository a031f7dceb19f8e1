import Mustache
import TwfeedBilling
import TwfeedCore

/// A recorded gap where it lies on a feed's page: what was not read, why, what reading
/// it costs, and the command that reads it. How many posts a gap holds is not known until
/// they are read (the API gives no count, and ids are not consecutive), so the marker
/// says so and gives the price of a post instead of a guessed total. Its values are
/// written escaped by the page template, like everything else.
struct GapMarker: MustacheParent {
    var newerThanID: String?
    var olderThanID: String
    var text: String
    var command: String

    init(_ gap: FeedGap, prices: Prices, ownsApp: Bool) {
        newerThanID = gap.reachesBack ? nil : gap.newerThanID.description
        olderThanID = gap.olderThanID.description
        let post = gap.feed == .mentions && ownsApp ? prices.ownedRead : prices.postRead
        let reach = gap.reachesBack ? "Older posts not read" : "Posts not read"
        text =
            "\(reach): \(gap.reason.rawValue). How many is not known until they are read; "
            + "each costs \(post.formatted) to read, and \(prices.userRead.formatted) more for an author not stored."
            + (gap.reachesBack ? " They go back as far as the API reaches; the next days' allowance reads on into them." : "")
        command = "twfeed fill \(gap.feed.rawValue) --max-usd X"
    }

    func child(named name: String) -> Any? {
        switch name {
        case "newerThanID": newerThanID
        case "olderThanID": olderThanID
        case "text": text
        case "command": command
        default: nil
        }
    }

    /// The page's tweets with each gap just above the first tweet below it; the gaps below
    /// the last tweet are returned when the page is the feed's last (`isLast`), else they
    /// belong to a later page.
    static func place(
        _ gaps: [FeedGap],
        in tweets: inout [RenderedTweet],
        isLast: Bool,
        marker: (FeedGap) -> GapMarker
    ) -> [GapMarker] {
        var left = gaps[...]
        for index in tweets.indices {
            guard let id = TweetID(tweets[index].tweet.id) else { continue }
            while let gap = left.first, id < gap.olderThanID {
                tweets[index].gapsBefore.append(marker(gap))
                left.removeFirst()
            }
        }
        return isLast ? left.map(marker) : []
    }
}
