import Mustache

/// The reader's templates (Mustache, from hummingbird-project/swift-mustache). Every
/// value goes in through `{{name}}`, which HTML-escapes `< > & " '` (`PageEscaping`,
/// which each template is registered with); no template uses
/// the unescaped `{{{name}}}` or `{{&name}}`, so a tweet cannot add markup (a test
/// checks the templates for both). The one exception is `tweetHTML`: a tweet's markup
/// as `TweetHTML` wrote it, escaping each value the same way (Tests/Golden/tweets.html
/// holds its bytes). The Atom feed uses the same escaping, which is
/// also XML's. The pages carry no script at all.
///
/// The markup is also the browser test's contract: `ol.timeline > li.tweet[data-id]`
/// with `img.avatar`, `.name`, `.username`, `time[datetime][title]`, `.feed-tag`,
/// `p.text`; `li.gap[data-older-than]` where a recorded gap lies; `form[role=search]`;
/// `a[rel=next]` for paging.
enum PageTemplates {
    static let library: MustacheLibrary = {
        MustacheContentTypes.register(PageEscaping(), named: PageEscaping.name)
        var library = MustacheLibrary()
        for (name, text) in sources {
            // The templates are constants of this file: a parse error is a bug caught by every test.
            try! library.register(PageEscaping.pragma + text, named: name)
        }
        return library
    }()

    static let sources: [(String, String)] = [
        ("top", top), ("header", header), ("page", page), ("tweetHTML", tweetHTML), ("gap", gap), ("tweetText", tweetText),
        ("compose", compose), ("photos", photos), ("outbox", outbox), ("conversation", conversation), ("signIn", signIn),
        ("atomContent", atomContent), ("atom", atom),
    ]

    /// Every HTML page's start, to `<body>`.
    static let top = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="same-origin">
        <title>{{title}} · twfeed</title>
        <link rel="stylesheet" href="/static/style.css">
        <link rel="icon" href="/static/avatar.svg">
        {{#atomHref}}<link rel="alternate" type="application/atom+xml" title="twfeed: {{title}}" href="{{atomHref}}">{{/atomHref}}
        </head>
        <body>

        """

    /// The signed-in pages' header (rendered in a `HeaderModel`'s context).
    static let header = """
        <header>
        <nav aria-label="Feeds"><a class="brand" href="/home">twfeed</a>{{#nav}} <a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a>{{/nav}}</nav>
        <form role="search" action="/search" method="get"><input type="search" name="q" value="{{query}}" placeholder="words, &quot;a phrase&quot;, from:user" aria-label="Search the cached tweets"><button type="submit">Search</button></form>
        <div class="who">{{#account}}<span class="account">{{account}}</span>{{/account}}{{#signedOutText}}<span class="signed-out">{{signedOutText}}</span>{{/signedOutText}}{{#accessNote}} · <span class="access-note">{{accessNote}}</span>{{/accessNote}}{{#canSignOut}} <form class="signout" method="post" action="/signout"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out</button></form>{{/canSignOut}}</div>
        <p class="health health-{{healthName}}" title="{{healthDetail}}">{{healthText}}</p>
        {{#spendText}}<p class="spend">{{spendText}}</p>{{/spendText}}
        <ul class="polls">{{#polls}}<li class="poll">{{feed}}: {{tweets}} tweets · last poll {{#lastPoll}}<time datetime="{{iso}}" title="{{exact}}">{{ago}}</time>{{/lastPoll}}{{^lastPoll}}never{{/lastPoll}}{{#error}} · <span class="error">{{error}}</span>{{/error}}</li>{{/polls}}</ul>
        </header>

        """

    static let page = """
        {{> top}}{{#header}}{{> header}}{{/header}}<main>
        <h1>{{heading}}</h1>
        {{#message}}<p class="message">{{message}}</p>{{/message}}
        <ol class="timeline">
        {{#tweets}}{{#gapsBefore}}{{> gap}}
        {{/gapsBefore}}{{> tweetHTML}}
        {{/tweets}}{{#trailingGaps}}{{> gap}}
        {{/trailingGaps}}</ol>
        {{#olderHref}}<nav class="paging" aria-label="Paging"><a rel="next" class="older" href="{{olderHref}}">Older</a></nav>{{/olderHref}}
        </main>
        <footer>{{#atomHref}}<a href="{{atomHref}}">Atom feed</a> · {{/atomHref}}<a href="/metrics">metrics</a> · <a href="/healthz">health</a></footer>
        </body>
        </html>

        """

    /// `/compose`: the parts' boxes (part 1 open, the later ones folded until they hold
    /// something), each with its photos and their descriptions, the time to send, "Check"
    /// and "Queue", each part's verdict and price, and the post being answered. A
    /// `<textarea>`'s first newline is dropped by the parser, so one is written before
    /// the text: a status that starts with a newline keeps it.
    static let compose = """
        {{> top}}{{#header}}{{> header}}{{/header}}<main>
        <h1>{{heading}}</h1>
        {{#replying}}<section class="replying" aria-label="The post you answer"><ol class="timeline">{{> tweetHTML}}
        </ol></section>{{/replying}}
        {{#warning}}<p class="warning">{{warning}}</p>{{/warning}}
        {{#message}}<p class="message">{{message}}</p>{{/message}}
        <form class="compose" method="post" action="/compose" enctype="multipart/form-data">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#replyTo}}<input type="hidden" name="reply_to" value="{{replyTo}}">{{/replyTo}}
        {{#first}}<div class="part" data-part="1">
        <label for="text">{{label}}</label>
        <textarea id="text" name="text" rows="6" maxlength="25000">
        {{text}}</textarea>
        {{> photos}}</div>{{/first}}
        <fieldset class="when"><legend>Time to send</legend>
        <label for="at">Not before</label> <input type="datetime-local" id="at" name="at" step="60" value="{{at}}">
        <label for="at_offset">UTC offset</label> <input type="text" id="at_offset" name="at_offset" size="6" placeholder="+01:00" value="{{atOffset}}">
        <p class="hint">Empty: it goes out now. Without an offset the time is read in {{zoneNote}}.</p>
        </fieldset>
        <fieldset class="thread"><legend>A thread: up to {{maxParts}} parts, each a reply to the one before</legend>
        {{#later}}<details class="part" data-part="{{number}}"{{#open}} open{{/open}}><summary>Add part {{number}}</summary>
        <label for="{{field}}">{{label}}</label>
        <textarea id="{{field}}" name="{{field}}" rows="4" maxlength="25000">
        {{text}}</textarea>
        {{> photos}}</details>
        {{/later}}</fieldset>
        <p class="buttons"><button type="submit" name="action" value="check">Check</button> <button type="submit" name="action" value="queue">Queue</button></p>
        </form>
        {{#checks}}<section class="check check-{{verdictName}}" aria-label="Check{{#part}}: {{part}}{{/part}}">
        {{#part}}<h2>{{part}}</h2>{{/part}}<p class="length"><span class="weighted">{{weightedLength}}</span>/<span class="max">{{maxLength}}</span> characters, as twitter-text counts them</p>
        <p class="verdict">{{verdict}}</p>
        <p class="cost">Posting it costs <span class="price">{{cost}}</span>{{why}}</p>
        </section>{{/checks}}
        </main>
        </body>
        </html>

        """

    /// A part's photo slots (in a `ComposeModel.Part`'s context): a file and its
    /// description each; the file chosen before a round trip is named, to choose again.
    static let photos = """
        <fieldset class="photos"><legend>Photos (up to {{photosPerPart}}: JPEG, PNG, WebP or a still GIF, at most 5 MB each)</legend>
        {{#photos}}<p class="photo"><label for="{{fileField}}">Photo {{slot}}</label> <input type="file" id="{{fileField}}" name="{{fileField}}" accept="image/jpeg,image/png,image/webp,image/gif"> <label for="{{altField}}">Description</label> <input type="text" id="{{altField}}" name="{{altField}}" value="{{alt}}">{{#previous}} <span class="previous">chosen before: {{previous}}; choose it again</span>{{/previous}}</p>
        {{/photos}}</fieldset>

        """

    /// `/outbox`: every status, newest first, with its kind, thread part, photos and time
    /// to send, and what can be done to it.
    static let outbox = """
        {{> top}}{{#header}}{{> header}}{{/header}}<main>
        <h1>{{heading}}</h1>
        {{#message}}<p class="message">{{message}}</p>{{/message}}
        <table class="outbox">
        <thead><tr><th scope="col">#</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Goes out</th><th scope="col">Expires</th><th scope="col">Cost</th><th scope="col"></th></tr></thead>
        <tbody>
        {{#items}}<tr class="item state-{{state}} kind-{{kind}}" id="o{{id}}" data-id="{{id}}"><td>{{id}}</td><td class="kind">{{kind}}</td><td class="status-text">{{text}}{{#target}}<span class="target">deletes post <a href="/tweet/{{target}}">{{target}}</a></span>{{/target}}{{#replyTo}}<span class="reply-to">reply to {{replyTo}}</span>{{/replyTo}}{{#part}}<span class="part">{{part}}</span>{{/part}}{{#hasPhotos}}<ul class="photos">{{#photos}}<li class="photo"><span class="file">{{fileName}}</span> · <span class="alt">{{#alt}}{{alt}}{{/alt}}{{^alt}}no description{{/alt}}</span> · <span class="upload">{{upload}}</span></li>{{/photos}}</ul>{{/hasPhotos}}</td><td class="state">{{state}}</td><td class="attempts">{{attempts}}</td><td class="last-error">{{lastError}}</td><td class="goes-out">{{#goesOut}}{{goesOutLabel}} <time datetime="{{iso}}" title="{{exact}}">{{exact}}</time>{{/goesOut}}</td><td class="expires">{{#expires}}<time datetime="{{iso}}" title="{{exact}}">{{exact}}</time>{{/expires}}</td><td class="cost">{{cost}}</td><td class="actions">{{#sentHref}}<a class="sent" href="{{sentHref}}" rel="noopener noreferrer">the post</a>{{/sentHref}}{{#canCancel}}<form method="post" action="/outbox/{{id}}/cancel"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" name="cancel">Cancel</button></form>{{/canCancel}}{{#canRetry}}<form method="post" action="/outbox/{{id}}/retry"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" name="retry">Retry</button></form>{{/canRetry}}</td></tr>
        {{/items}}</tbody>
        </table>
        {{#olderHref}}<nav class="paging" aria-label="Paging"><a rel="next" class="older" href="{{olderHref}}">Older</a></nav>{{/olderHref}}
        </main>
        </body>
        </html>

        """

    /// `/tweet/ID`: the posts above (root first), the post, the replies stored below.
    static let conversation = """
        {{> top}}{{#header}}{{> header}}{{/header}}<main>
        <h1>Conversation</h1>
        {{#message}}<p class="message">{{message}}</p>{{/message}}
        <ol class="timeline ancestors">
        {{#ancestors}}{{#stored}}{{> tweetHTML}}{{/stored}}{{#missing}}<li class="tweet missing" data-id="{{missing}}"><p class="fault">Post {{missing}}: {{#unavailable}}unavailable ({{unavailable}}){{/unavailable}}{{^unavailable}}not fetched yet{{/unavailable}}</p></li>{{/missing}}
        {{/ancestors}}</ol>
        <ol class="timeline focus">
        {{#focus}}{{> tweetHTML}}{{/focus}}
        </ol>
        {{#hasReplies}}<h2>Replies</h2>{{/hasReplies}}
        <ol class="timeline replies">
        {{#replies}}{{> tweetHTML}}
        {{/replies}}</ol>
        </main>
        </body>
        </html>

        """

    /// What a visitor without a session sees: how to get one.
    static let signIn = """
        {{> top}}<main class="sign-in">
        <h1>twfeed</h1>
        <p class="message">{{message}}</p>
        <p>To sign in, run <code>twfeed open</code> on the machine the reader runs on, as the user that runs it, and open the link it prints (<code>twfeed open --browser</code> opens it for you). A link works once, for ten minutes.</p>
        </main>
        </body>
        </html>

        """

    /// A recorded gap where it lies in a feed (`GapMarker`), escaped like every value.
    static let gap = """
        <li class="gap"{{#newerThanID}} data-newer-than="{{newerThanID}}"{{/newerThanID}} data-older-than="{{olderThanID}}"><p class="gap-text">{{text}}</p><p class="gap-fill"><code>{{command}}</code> reads them.</p></li>
        """

    /// A tweet on a page: its markup as `TweetHTML` wrote it (`RenderedTweet`), which
    /// escaped every value; the one value a template writes as it is.
    static let tweetHTML = "{{% CONTENT_TYPE: TEXT}}{{html}}"

    /// On one line: `p.text`'s text content is exactly the tweet's.
    static let tweetText = """
        {{#segments}}{{#href}}<a href="{{href}}" rel="nofollow noopener noreferrer">{{text}}</a>{{/href}}{{^href}}{{text}}{{/href}}{{/segments}}
        """

    /// An Atom entry's HTML: the tweet's context and text, escaped here once; the feed's
    /// template escapes the whole again, as `type="html"` content is carried.
    static let atomContent = """
        {{#repostedBy}}<p>{{label}} <a href="{{href}}">{{linkText}}</a></p>{{/repostedBy}}{{#context}}<p>{{label}} <a href="{{href}}">{{linkText}}</a>{{#replyExcerpt}}: {{replyExcerpt}}{{/replyExcerpt}}</p>{{/context}}<p>{{#deleted}}<em>deleted</em>{{/deleted}}{{^deleted}}{{> tweetText}}{{/deleted}}</p>{{#quoted}}<blockquote><p>{{name}} (@{{username}})</p><p>{{#deleted}}<em>deleted</em>{{/deleted}}{{^deleted}}{{> tweetText}}{{/deleted}}</p></blockquote>{{/quoted}}{{#quotedMissing}}<p>Quoted: {{quotedMissing}}</p>{{/quotedMissing}}
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
        <id>{{id}}</id>
        <title>{{title}}</title>
        <subtitle>Cached by twfeed on this machine</subtitle>
        <updated>{{updated}}</updated>
        <link rel="self" type="application/atom+xml" href="{{selfHref}}"/>
        <link rel="alternate" type="text/html" href="{{htmlHref}}"/>
        <generator>twfeed</generator>
        {{#entries}}
        <entry>
        <id>{{id}}</id>
        <title>{{title}}</title>
        <updated>{{updated}}</updated>
        <published>{{updated}}</published>
        <author><name>{{authorName}}</name>{{#authorHref}}<uri>{{authorHref}}</uri>{{/authorHref}}</author>
        <link rel="alternate" type="text/html" href="{{statusHref}}"/>
        {{#feeds}}<category term="{{.}}"/>{{/feeds}}
        <content type="html">{{contentHTML}}</content>
        </entry>
        {{/entries}}
        </feed>

        """
}
