extension AppDatabase {
    /// v14: what a tweet points at. Reposted originals, quoted posts and replied-to
    /// parents are already tweets of their own (no feed tag); this adds their photos,
    /// videos and GIFs, one row each in the order the post shows them. `file` is the
    /// cached picture (the image cache's name), null until it is fetched. A row goes with
    /// its tweet (ON DELETE CASCADE), so retention needs no step of its own.
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
        """
}
