import Foundation
import HTTPTypes
import Hummingbird
import TwfeedCore
import TwfeedStore

/// `GET /tweet/ID`: a post in its conversation, from the store alone (a page never
/// waits on the network). O(depth + replies shown): `StoreReading.conversationPage`.
extension ReaderRoutes {
    static func conversationPage(_ request: Request, _ context: ReaderContext, _ source: ReaderSource) async throws -> Response {
        let text = context.parameters.get("id") ?? ""
        guard let id = TweetID(text) else { throw HTTPError(.badRequest, message: "\(text) is not a tweet id") }
        let now = source.clock.now()
        // The thread, its links and the header's counts: one read.
        let read = try await source.database.conversationPage(id, avatarPath: source.avatarHref, counts: source.countsRequest(now: now))
        guard let conversation = read.content else {
            await source.fetches.request([id])
            throw HTTPError(.notFound, message: "post \(id) is not stored yet; twfeed asked for it: look again in a moment")
        }
        let stored = conversation.ancestors.compactMap { if case .stored(let item) = $0 { item } else { nil } }
        let items = stored + [conversation.tweet] + conversation.replies
        let links = read.links
        // The posts it lacks are asked for (those the API called gone are not).
        let missing = conversation.ancestors.compactMap { if case .missing(let id, nil) = $0 { id } else { nil } }
        await source.fetches.request(missing + items.flatMap(\.faults))
        let model = ConversationModel(
            header: await header(current: "/tweet", context: context, source: source, now: now, stored: read.counts),
            ancestors: conversation.ancestors.reversed().map { ancestor in
                switch ancestor {
                case .stored(let item): .init(stored: RenderedTweet(TweetModel(item, links: links, now: now)), missing: nil)
                case .missing(let id, let unavailable): .init(stored: nil, missing: id.description, unavailable: unavailable)
                }
            },
            focus: RenderedTweet(TweetModel(conversation.tweet, links: links, now: now)),
            replies: conversation.replies.map { RenderedTweet(TweetModel($0, links: links, now: now)) },
            message: conversation.ancestors.count == Conversation.maxDepth ? "Only the nearest \(Conversation.maxDepth) posts above are shown." : nil
        )
        return try html(PageTemplates.render(model, withTemplate: "conversation"))
    }
}
