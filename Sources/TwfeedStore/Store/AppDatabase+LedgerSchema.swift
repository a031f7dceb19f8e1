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

    /// One charge per resource a day (v17). X's pricing page dedups "per resource, across
    /// queries": a post is one resource whichever endpoint returns it, at whatever price,
    /// so `billedResource` is keyed by what was read (`post` or `user`), not by the kind
    /// of its charge, and the day's first read sets the price. `spend.repeats` counts the
    /// resources each source got back already charged that day (free), so `usage` can
    /// show what the deduplication saved. Today's rows carry over under their resource.
    static let ledgerPerResource = """
        CREATE TABLE billedResourceByResource (
            day TEXT NOT NULL,
            resource TEXT NOT NULL,
            id INTEGER NOT NULL,
            PRIMARY KEY (day, resource, id)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO billedResourceByResource (day, resource, id)
            SELECT day, CASE kind WHEN 'user_read' THEN 'user' ELSE 'post' END, id FROM billedResource;
        DROP TABLE billedResource;
        ALTER TABLE billedResourceByResource RENAME TO billedResource;
        ALTER TABLE spend ADD COLUMN repeats INTEGER NOT NULL DEFAULT 0;
        """
}
