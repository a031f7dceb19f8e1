import Foundation

/// What both dialects' create endpoints share once each has read its own request: the
/// API's checks under this run's settings, and an accepted status stored, listed in
/// `posted` and priced. Each dialect words its refusals and its answer itself.
extension EmulatorState {
    /// Why the API refuses `text`, or nil, under this run's duplicate window, replies
    /// rule and long-post allowance. A post with media may have no text.
    func rejection(ofPost text: String, replyTo: UInt64?, hasMedia: Bool = false, now: Date) -> PostRejection? {
        store.validatePost(
            text: text,
            replyTo: replyTo,
            now: now,
            duplicateWindow: duplicateWindowSeconds,
            repliesRequireSummons: billing.repliesRequireSummons,
            longPosts: longPostsAllowed,
            hasMedia: hasMedia
        )
    }

    /// Stores an accepted status and lists it in `posted`: the new tweet, and what its
    /// create is billed as (priced before it is stored, as its reply target stands).
    /// `media`: uploaded photos, checked usable by the caller, shown by the post.
    mutating func accept(
        post text: String,
        replyTo: UInt64?,
        media: [UploadedMedia] = [],
        dialect: EmulatorDialect,
        now: Date
    ) -> (StoredTweet, EmulatorResourceKind) {
        let kind = PostPricing.kind(text: text, replyTo: replyTo, store: store)
        let tweet = store.post(text: text, replyTo: replyTo, now: now, media: media.map(\.asPostedMedia))
        for item in media { uploads.attach(item.id, to: tweet.id) }
        posted.append(
            PostedStatus(
                id: String(tweet.id),
                text: text,
                inReplyToID: replyTo.map { String($0) },
                dialect: dialect,
                createdAt: tweet.createdAt,
                mediaIDs: media.map { String($0.id) }
            )
        )
        return (tweet, kind)
    }
}
