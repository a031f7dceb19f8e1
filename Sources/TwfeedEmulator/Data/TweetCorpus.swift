/// The words the emulated network is made of. The texts exercise what a client must get
/// right: HTML escapes (`&`, `<`, `>`), accents, CJK, emoji and ZWJ sequences, hashtags,
/// links, mentions, and texts over 140 characters (v1.1 truncation).
enum TweetCorpus {
    /// Display name and username of the 50 other accounts.
    static let people: [(String, String)] = [
        ("Ada Brennan", "adabrennan"), ("Zoë Ångström", "zoe_angstrom"), ("José Ramírez", "jramirez"),
        ("Mei Chen 陈美", "meichen"), ("Søren Kierkegaard-Lund", "soren_kl"), ("Łukasz Nowak", "lnowak"),
        ("Priya Raman", "priyaraman"), ("Tomás O'Neill", "tomas_oneill"), ("Yuki Tanaka 田中", "yukitanaka"),
        ("Fatima Zahra", "fzahra"), ("Ngozi Okafor", "ngozi_ok"), ("Hannah Schmidt", "hschmidt"),
        ("Ivan Petrov", "ivan_petrov"), ("Amélie Laurent", "amelie_l"), ("Kwame Mensah", "kwamemensah"),
        ("Olivia Park", "oliviapark"), ("Mateus Silva", "mateus_silva"), ("Ingrid Berg", "ingridberg"),
        ("Rahul Verma", "rahulverma"), ("Chloé Dubois", "chloe_dubois"), ("Diego Fernández", "diegof"),
        ("Aiko Sato", "aikosato"), ("Liam Walsh", "liamwalsh"), ("Sofía Morales", "sofiamorales"),
        ("Emeka Obi", "emekaobi"), ("Greta Müller", "greta_mueller"), ("Noah Cohen", "noahcohen"),
        ("Leila Haddad", "leilahaddad"), ("Mikael Virtanen", "mvirtanen"), ("Ana Kovač", "anakovac"),
        ("Jin-woo Park 박진우", "jinwoo_park"), ("Elif Yılmaz", "elifyilmaz"), ("Pedro Alves", "pedroalves"),
        ("Maya Goldberg", "mayagoldberg"), ("Oskar Lindqvist", "oskarl"), ("Bea Santos", "beasantos"),
        ("Farid Karimi", "faridkarimi"), ("Nora Hansen", "norahansen"), ("Kofi Boateng", "kofiboateng"),
        ("Isabel Cruz", "isabelcruz"), ("Ravi Shankar", "ravishankar_dev"), ("Clara Rossi", "clararossi"),
        ("Andrés Vega", "andresvega"), ("Sakura Ito", "sakura_ito"), ("Tobias Klein", "tobiasklein"),
        ("Amara Nwosu", "amaranwosu"), ("Lucas Martin", "lucasmartin"), ("Eva Novák", "evanovak"),
        ("Ryo Yamamoto", "ryo_yamamoto"), ("The Release Bot 🤖", "release_bot"),
    ]

    static let bios = [
        "Writes code, drinks coffee ☕", "Open source & open data", "Systems, networks, <small> things",
        "Photographer. Cyclist. Curious.", "Linux on everything 🐧", "ソフトウェアエンジニア",
        "Making the web faster", "Notes on Swift, Rust & C", "Dad jokes and distributed systems",
    ]

    static let places = ["Lisbon", "Berlin", "Tokyo", "Lagos", "São Paulo", "Montréal", "Oslo", "Kraków", ""]

    static let sources = [
        "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
        "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
        "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
    ]

    /// Short texts by other accounts.
    static let phrases = [
        "Fish & chips on the pier, finally.",
        "Reminder: if a < b and b > c, you still know nothing about a and c.",
        "Café crème before the standup ☕",
        "新しいリリースが出ました 🎉",
        "naïve façade, coöperate, résumé: accents still break things in 2026",
        "Shipping day 🚀 wish us luck",
        "Reading about structured concurrency again.",
        "The build is green. Nobody touch anything.",
        "Tabs vs spaces? I pick whatever the formatter picks.",
        "Just found a bug that only shows on Tuesdays. Fun times.",
        "Rate limits are a feature, not a bug.",
        "TIL: HTTP/1.1 keep-alive saves more than you think",
        "Our family 👨‍👩‍👧‍👦 went hiking today, legs are gone",
        "Coffee → code → coffee → more code",
        "R&D budget approved <finally>",
        "Debugging DNS. It was DNS. It is always DNS.",
        "Dziękuję everyone who came to the meetup!",
        "Привет из Москвы, the conference was great",
        "Weekend project: a tiny HTTP server on raw sockets",
        "Sunsets here are unreal 🌅",
        "Wrote a blog post about SQLite WAL mode",
        "Who else reads changelogs for fun?",
        "Deploys on Fridays: brave or foolish?",
        "Three nines of uptime & zero sleep",
        "मुझे यह पसंद है — great talk today",
        "Small PRs > big PRs",
        "Finally migrated the old cron jobs to systemd timers",
        "Rewriting it in Swift, one module at a time",
        "The best error message is the one you never see",
        "Pair programming with the cat 🐈 again",
    ]

    /// Sentences appended to make texts longer than 140 characters.
    static let longTails = [
        "It took three attempts, two rollbacks and one very patient reviewer, but the migration is finally done and the dashboards look calm again.",
        "Longer thought: most outages I have seen started as a small config change that nobody thought needed review, so now everything gets a second pair of eyes.",
        "The trick was to stop polling so often & let the rate-limit headers tell us when to come back — fewer requests, fresher data, happier servers.",
        "Writing this down so future me remembers: back up the database before upgrading, read the release notes, and never trust a clock on a VM.",
    ]

    /// Alt texts of photos, videos and GIFs (what a screen reader says): accents, an `&`,
    /// a `<` and quotes, which a reader must show as text.
    static let altTexts = [
        "A harbour at sunset, boats in silhouette against an orange sky",
        "Screenshot of a terminal: the test suite passes, 1,204 tests in 38 s",
        "Café table with a croissant & a flat white",
        "Whiteboard diagram: client → cache → \"origin\" with arrows in red",
        "A grey cat asleep on a laptop keyboard",
        "Chart where latency < 10 ms after the fix, spiky before",
        "Mountain trail in fog, pine trees on both sides",
        "富士山の朝焼け (Mount Fuji at dawn)",
        "Conference badge on a lanyard, the logo half covered by a sticker",
    ]

    /// The account user's own short texts.
    static let myPhrases = [
        "Trying twfeed against the local emulator",
        "Morning! Coffee first, then the timeline ☕",
        "Note to self: read the rate-limit headers",
        "Working on the outbox retry logic today",
        "Is anyone else still using RSS? I am.",
        "Posting from the command line feels great",
        "Image cache is at 42 MB & counting",
        "New week, new bugs 🐛",
        "Cleaned up the systemd unit, much tidier now",
        "Reading about OAuth 1.0a signatures, again",
        "Tea > coffee on Sundays 🍵",
        "Finally a quiet afternoon to write docs",
    ]

    static let replies = [
        "totally agree!", "this is great, thanks for sharing", "ha, same here 😄", "any write-up on this?",
        "congrats 🎉", "could not agree more", "wait, really? <3", "source?", "I had the same issue & fixed it by restarting",
        "thanks!", "that's a good point", "+1",
    ]

    static let mentionTexts = [
        "what do you think about this?", "thanks for the tip yesterday!", "does twfeed support v1.1 too?",
        "saw your post, nice work 👏", "we should meet at the next meetup", "can you share the config?",
        "your emulator trick saved my afternoon", "ping: the PR is ready for review",
    ]

    static let hashtags = ["#swift", "#linux", "#opensource", "#coffee", "#release", "#devlife", "#sqlite", "#oauth"]

    static let sites = [
        "https://example.com/articles/", "https://blog.example.org/posts/", "https://news.example.net/story/",
        "https://docs.example.dev/guide/",
    ]

    static let linkCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// A `t.co` link to a made-up article.
    static func link(_ rng: inout SeededRandom) -> TweetURL {
        let code = String((0..<10).map { _ in rng.pick(linkCharacters) })
        let expanded = rng.pick(sites) + "item-\(rng.next() % 100_000)"
        return TweetURL(url: "https://t.co/" + code, expanded: expanded, display: display(expanded))
    }

    /// A `t.co` link to a tweet, as a quote tweet's text ends with.
    static func statusLink(_ rng: inout SeededRandom, username: String, id: UInt64) -> TweetURL {
        let code = String((0..<10).map { _ in rng.pick(linkCharacters) })
        let expanded = "https://twitter.com/\(username)/status/\(id)"
        return TweetURL(url: "https://t.co/" + code, expanded: expanded, display: display(expanded))
    }

    /// The shortened form shown in text: no scheme, cut with an ellipsis past 25 characters.
    static func display(_ expanded: String) -> String {
        var text = expanded
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) { text.removeFirst(scheme.count) }
        return text.count > 25 ? String(text.prefix(24)) + "…" : text
    }

    /// A text by another account: sometimes long, sometimes with hashtags or a link.
    static func otherText(_ rng: inout SeededRandom) -> (String, [TweetURL]) {
        var text = rng.pick(phrases)
        var urls: [TweetURL] = []
        if rng.chance(0.2) { text += " " + rng.pick(longTails) }
        if rng.chance(0.25) { text += " " + rng.pick(hashtags) }
        if rng.chance(0.2) {
            let url = link(&rng)
            text += " " + url.url
            urls.append(url)
        }
        return (text, urls)
    }

    /// A text by the account user.
    static func myText(_ rng: inout SeededRandom) -> (String, [TweetURL]) {
        var text = rng.pick(myPhrases)
        if rng.chance(0.15) { text += " " + rng.pick(longTails) }
        if rng.chance(0.2) { text += " " + rng.pick(hashtags) }
        // A counter-like suffix keeps the account's own texts apart, as real ones are.
        text += " (\(rng.next() % 10_000))"
        return (text, [])
    }
}
