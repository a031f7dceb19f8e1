extension AppDatabase {
    /// The ledger (v11). `spend` holds what the API charged per UTC day, source and kind
    /// of resource: a handful of rows a day, so every report over it costs
    /// O(days × sources × kinds), never O(tweets). `billedResource` holds the posts and
    /// users charged today, per kind, because the API charges a resource once per UTC day:
    /// the first answer of a day that returns a post pays for it, the next ones do not.
    /// Its rows of past days are dropped when the day changes, so it stays the size of
    /// one day's reads. Days are `YYYY-MM-DD` (UTC), which sort as they read.
    static let ledgerSchema = """
        CREATE TABLE spend (
            day TEXT NOT NULL,
            source TEXT NOT NULL,
            kind TEXT NOT NULL,
            resources INTEGER NOT NULL,
            micros INTEGER NOT NULL,
            PRIMARY KEY (day, source, kind)
        ) WITHOUT ROWID;
        CREATE TABLE billedResource (
            day TEXT NOT NULL,
            kind TEXT NOT NULL,
            id INTEGER NOT NULL,
            PRIMARY KEY (day, kind, id)
        ) WITHOUT ROWID;
        """
}
