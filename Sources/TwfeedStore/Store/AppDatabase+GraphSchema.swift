extension AppDatabase {
    /// v14: what a tweet points at. Reposted originals, quoted posts and replied-to
    /// parents are already tweets of their own (no feed tag); this adds their photos,
    /// videos and GIFs, one row each in the order the post shows them (v15 moves the
    /// cached file to `photo`, by URL, and drops `file`). A row goes with
    /// its tweet (ON DELETE CASCADE), so retention needs no step of its own.
    ///
    /// `fetchRequest` holds the posts someone looked for and twfeed lacks (a fault), until
    /// the fetcher stores them or the API says they are gone; `unavailableTweet` remembers
    /// what the API said, so a gone post is not asked for again for a day.
    static let graphSchema = """
        CREATE TABLE media (
            tweetId INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            mediaKey TEXT NOT NULL,
            kind TEXT NOT NULL,
            imageURL TEXT,
            width INTEGER,
            height INTEGER,
            altText TEXT,
            file TEXT,
            PRIMARY KEY (tweetId, position)
        ) WITHOUT ROWID;
        CREATE TABLE fetchRequest (
            tweetId INTEGER PRIMARY KEY,
            reason TEXT NOT NULL,
            requestedAt DOUBLE NOT NULL
        );
        CREATE TABLE unavailableTweet (
            tweetId INTEGER PRIMARY KEY,
            reason TEXT NOT NULL,
            checkedAt DOUBLE NOT NULL
        );
        """
}
