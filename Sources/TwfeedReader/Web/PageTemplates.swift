import Mustache

/// The reader's templates (Mustache, from hummingbird-project/swift-mustache). Every
/// value goes in through `{{name}}`, which HTML-escapes `< > & " '`; no template uses
/// the unescaped `{{{name}}}` or `{{&name}}`, so a tweet cannot add markup (a test
/// checks the templates for both). The Atom feed uses the same escaping, which is
/// also XML's. The pages carry no script at all.
///
/// The markup is also the browser test's contract: `ol.timeline > li.tweet[data-id]`
/// with `img.avatar`, `.name`, `.username`, `time[datetime][title]`, `.feed-tag`,
/// `p.text`; `form[role=search]`; `a[rel=next]` for paging.
enum PageTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in sources {
            // The templates are constants of this file: a parse error is a bug caught by every test.
            try! library.register(text, named: name)
        }
        return library
    }()

    static let sources: [(String, String)] = [
        ("page", page), ("tweet", tweet), ("tweetText", tweetText), ("atomContent", atomContent), ("atom", atom),
    ]

    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <title>{{title}} · twfeed</title>
        <link rel="stylesheet" href="/static/style.css">
        <link rel="icon" href="/static/avatar.svg">
        {{#atomHref}}<link rel="alternate" type="application/atom+xml" title="twfeed: {{title}}" href="{{atomHref}}">{{/atomHref}}
        </head>
        <body>
        <header>
        <nav aria-label="Feeds"><a class="brand" href="/home">twfeed</a>{{#nav}} <a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a>{{/nav}}</nav>
        <form role="search" action="/search" method="get"><input type="search" name="q" value="{{query}}" placeholder="words, &quot;a phrase&quot;, from:user" aria-label="Search the cached tweets"><button type="submit">Search</button></form>
        <p class="health health-{{healthName}}" title="{{healthDetail}}">{{healthText}}</p>
        {{#spendText}}<p class="spend">{{spendText}}</p>{{/spendText}}
        <ul class="polls">{{#polls}}<li class="poll">{{feed}}: {{tweets}} tweets · last poll {{#lastPoll}}<time datetime="{{iso}}" title="{{exact}}">{{ago}}</time>{{/lastPoll}}{{^lastPoll}}never{{/lastPoll}}{{#error}} · <span class="error">{{error}}</span>{{/error}}</li>{{/polls}}</ul>
        </header>
        <main>
        <h1>{{heading}}</h1>
        {{#message}}<p class="message">{{message}}</p>{{/message}}
        <ol class="timeline">
        {{#tweets}}{{> tweet}}
        {{/tweets}}</ol>
        {{#olderHref}}<nav class="paging" aria-label="Paging"><a rel="next" class="older" href="{{olderHref}}">Older</a></nav>{{/olderHref}}
        </main>
        <footer><a href="{{atomHref}}">Atom feed</a> · <a href="/metrics">metrics</a> · <a href="/healthz">health</a></footer>
        </body>
        </html>

        """

    static let tweet = """
        <li class="tweet" id="t{{id}}" data-id="{{id}}"><img class="avatar" src="{{avatar}}" width="48" height="48" alt=""><div class="body"><p class="meta"><span class="name">{{name}}</span> <a class="username" href="{{profileHref}}">@{{username}}</a> · <a class="permalink" href="{{statusHref}}"><time datetime="{{time.iso}}" title="{{time.exact}}">{{time.ago}}</time></a>{{#feeds}} <span class="feed-tag feed-{{.}}">{{.}}</span>{{/feeds}}</p>{{#context}}<p class="context">{{label}} <a href="{{href}}">{{linkText}}</a></p>{{/context}}<p class="text">{{> tweetText}}</p></div></li>
        """

    /// On one line: `p.text`'s text content is exactly the tweet's.
    static let tweetText = """
        {{#segments}}{{#href}}<a href="{{href}}" rel="nofollow noopener noreferrer">{{text}}</a>{{/href}}{{^href}}{{text}}{{/href}}{{/segments}}
        """

    /// An Atom entry's HTML: the tweet's context and text, escaped here once; the feed's
    /// template escapes the whole again, as `type="html"` content is carried.
    static let atomContent = """
        {{#context}}<p>{{label}} <a href="{{href}}">{{linkText}}</a></p>{{/context}}<p>{{> tweetText}}</p>
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
