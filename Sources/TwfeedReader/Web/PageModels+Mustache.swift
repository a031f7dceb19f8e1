import Mustache

// The templates look values up by name. Without these, swift-mustache finds them with
// `Mirror` reflection, which made rendering a page of 50 tweets about ten times slower
// than reading them from the store. Each model answers for exactly its own fields.

extension PageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "heading": heading
        case "atomHref": atomHref
        case "header": header
        case "csrf": header.csrf
        case "message": message
        case "tweets": tweets
        case "olderHref": olderHref
        case "trailingGaps": trailingGaps
        default: nil
        }
    }
}

extension HeaderModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "nav": nav
        case "query": query
        case "account": account
        case "signedOutText": signedOutText
        case "accessNote": accessNote
        case "canSignOut": canSignOut
        case "csrf": csrf
        case "healthName": healthName
        case "healthText": healthText
        case "healthDetail": healthDetail
        case "spendText": spendText
        case "polls": polls
        default: nil
        }
    }
}

extension HeaderModel.NavLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "label": label
        case "current": current
        default: nil
        }
    }
}

extension HeaderModel.Poll: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "feed": feed
        case "tweets": tweets
        case "lastPoll": lastPoll
        case "error": error
        default: nil
        }
    }
}

extension TimeModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "iso": iso
        case "exact": exact
        case "ago": ago
        default: nil
        }
    }
}

/// Only what the Atom feed's `atomContent` and `tweetText` templates use: the pages'
/// tweets are written by `TweetHTML`.
extension TweetModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "repostedBy": repostedBy
        case "context": context
        case "replyExcerpt": replyExcerpt
        case "segments": post.segments
        case "deleted": post.deleted
        case "quoted": quoted
        case "quotedMissing": quotedMissing
        default: nil
        }
    }
}

extension TweetModel.Context: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "href": href
        case "linkText": linkText
        default: nil
        }
    }
}

/// A quoted post in an Atom entry: it answers every name the entry's quote uses, so
/// none falls through to the tweet around it.
extension TweetModel.Card: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "username": username
        case "segments": segments
        case "deleted": deleted
        default: nil
        }
    }
}

extension TweetText.Segment: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "href": href
        default: nil
        }
    }
}

extension AtomFeed: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "updated": updated
        case "selfHref": selfHref
        case "htmlHref": htmlHref
        case "entries": entries
        default: nil
        }
    }
}

extension AtomFeed.Entry: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "updated": updated
        case "authorName": authorName
        case "authorHref": authorHref
        case "statusHref": statusHref
        case "feeds": feeds
        case "contentHTML": contentHTML
        default: nil
        }
    }
}
